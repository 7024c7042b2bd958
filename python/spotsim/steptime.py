"""Step time from PyTorch profiler (Kineto) traces, its prediction on other GPUs, and checkpoint cost."""
import pandas as pd

from . import _spotsim


class KinetoProfile:
    """A Kineto trace read once. info: device and steady-state means; steps: per-step times (ms) by kernel class;
    classes: mean time and kernel count per steady-state step by class; predict(): the step on other GPUs."""

    def __init__(self, profile):
        self._profile = profile
        self.path = profile.path
        self.info = profile.info()
        self.steps = pd.DataFrame(profile.step_columns())
        self.classes = pd.DataFrame(profile.class_rows())

    def predict(self, targets=(), measured_gpu="", tf32="conv", measured_link_gbps=None, target_link_gbps=None,
                precision=None, layout="as-recorded", fuse_norm_activation=False, batch=None, target_batch=None,
                host_scaling="fixed"):
        """One row per GPU (the measured one first): measured and predicted step, busy and kernel time in ms, by
        class. measured_gpu overrides the GPU read from the trace. The other arguments are ``spotsim steptime``'s
        prediction options, read through the CLI's own schema (same defaults, ranges and messages): tf32 (conv, all,
        off), precision (fp32, tf32, amp-fp16, amp-bf16), layout (as-recorded, channels-last),
        fuse_norm_activation, batch and target_batch (per-GPU batches of the trace and of the target run),
        host_scaling (fixed, per-sample), measured_link_gbps with target_link_gbps (docs/step-time.md)."""
        if isinstance(targets, str):
            targets = [t for t in targets.split(",") if t]
        options = {"tf32": tf32, "measured_link_gbps": measured_link_gbps, "target_link_gbps": target_link_gbps,
                   "precision": precision, "layout": layout, "fuse_norm_activation": fuse_norm_activation,
                   "batch": batch, "target_batch": target_batch, "host_scaling": host_scaling}
        return pd.DataFrame(self._profile.predict(list(targets), measured_gpu, options))

    def __repr__(self):
        i = self.info
        return (f"<KinetoProfile {self.path}: {i['device_name'] or 'unknown device'}, {i['steady_steps']} steady "
                f"steps of {i['step_ms_mean']:.2f} ms>")


def read_kineto(path):
    """Read a Kineto Chrome trace (.json or .json.gz, current or 2021 schema) into a KinetoProfile."""
    return KinetoProfile(_spotsim.read_kineto(str(path)))


def checkpoint_cost(parameters, training_setup="adam-mixed", write_gbps=1.0, read_gbps=1.0, writers=1):
    """Checkpoint size (GB), write and restore time (s) for a model of `parameters` parameters
    (``spotsim steptime --params``)."""
    return _spotsim.checkpoint_cost(float(parameters), training_setup, write_gbps, read_gbps, writers)
