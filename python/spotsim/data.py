"""Where the shared reference data lives (GCP lifetimes, Kineto traces): $SPOTSIM_SHARED_DIR, else ../shared
beside the repository. The product never needs it; notebooks and tests that use it say so when it is missing."""
import os
import pathlib

from . import _spotsim


def _repository():
    """The source tree the module was built from: two levels above its shipped traces (<repo>/traces/library)."""
    return pathlib.Path(_spotsim.shipped_trace_directory()).resolve().parent.parent


def shared_dir(required=None):
    """The shared data directory. With `required` (a path inside it), raise FileNotFoundError with a clear message
    if that file is absent."""
    env = os.environ.get("SPOTSIM_SHARED_DIR")
    directory = pathlib.Path(env) if env else _repository().parent / "shared"
    if required is not None and not (directory / required).exists():
        raise FileNotFoundError(
            f"shared data not found: {directory / required} does not exist. Set SPOTSIM_SHARED_DIR to the directory "
            f"that holds data/preemption and data/kernels (by default ../shared beside the repository).")
    return directory
