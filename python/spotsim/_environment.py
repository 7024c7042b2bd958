"""Checks made before the compiled module is loaded, so that `import spotsim` from the wrong interpreter says what
to do instead of failing deep inside numpy or the extension loader.

The module is built for one interpreter (CMake's Python3_EXECUTABLE, Debian's /usr/bin/python3 by default, the one
with numpy, pandas and matplotlib from apt). A pyenv or virtualenv `python3` first on PATH usually has none of them.
"""
import importlib.util
import sys

try:
    from . import _build_info
except ImportError:  # the sources used without CMake's generated file: nothing to compare with
    _build_info = None

NEEDED = ("numpy", "pandas")


def _hint():
    if _build_info is None:
        return "use the interpreter the module was built for"
    return (f"this module was built for {_build_info.PYTHON} (Python {'.'.join(map(str, _build_info.PYTHON_VERSION))}); "
            f"run `{_build_info.SOURCE_DIR}/dev python` (that interpreter with the module on its path) or "
            f"`{_build_info.SOURCE_DIR}/dev notebook`")


def check_interpreter():
    """ImportError with a clear message unless this interpreter can load the module and its dependencies."""
    here = f"Python {sys.version.split()[0]} at {sys.executable}"
    if _build_info is not None and tuple(sys.version_info[:2]) != tuple(_build_info.PYTHON_VERSION):
        raise ImportError(f"spotsim cannot be imported by {here}: {_hint()}")
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise ImportError(f"spotsim needs {' and '.join(missing)}, which {here} does not have: {_hint()} "
                          f"(Debian: apt-get install python3-numpy python3-pandas)")
