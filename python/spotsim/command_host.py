"""`spotsim sweep` and `spotsim regress` run inside Python (docs/plugins.md#python-in-specs).

A spec may name a Python class as `python:MODULE:Class`, a selection or a checkpoint policy. The `spotsim` executable
does not embed Python: when a spec names one, it re-runs the same command as
`python3 -m spotsim.command_host sweep|regress ARGS...`, with the directories of the spec (or baseline) files put on
PYTHONPATH before the user's own. This module imports the classes and hands the command to the compiled module, which
runs the CLI's own code with them.
"""

import importlib
import os
import signal
import sys


class PolicyLoadError(Exception):
    """MODULE:Class cannot be found or imported; the message says which and why."""


def load_policy_class(target):
    """(class, canonical path of its module's file) for "MODULE:Class", else PolicyLoadError."""
    module_name, _, class_name = target.rpartition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or module_name
        if module_name == missing or module_name.startswith(missing + "."):
            raise PolicyLoadError(
                f"no module '{module_name}' on the search path, the spec's (or baseline's) directory then "
                f"PYTHONPATH: {os.environ.get('PYTHONPATH', '')}") from None
        raise PolicyLoadError(f"importing module '{module_name}' raised ModuleNotFoundError: {error}") from None
    except SyntaxError as error:
        raise PolicyLoadError(
            f"module '{module_name}' does not compile: {error.filename}, line {error.lineno}: "
            f"SyntaxError: {error.msg}") from None
    except Exception as error:  # noqa: BLE001 - whatever the module raised on import is the user's to see
        raise PolicyLoadError(f"importing module '{module_name}' raised {type(error).__name__}: {error}") from None
    file = getattr(module, "__file__", None)
    if not file:
        raise PolicyLoadError(f"module '{module_name}' has no file (a namespace package?); name a module file")
    path = os.path.realpath(file)
    if not hasattr(module, class_name):
        raise PolicyLoadError(f"module '{module_name}' ({path}) has no class '{class_name}'")
    cls = getattr(module, class_name)
    if not callable(cls):
        raise PolicyLoadError(f"'{class_name}' in module '{module_name}' ({path}) is a "
                              f"{type(cls).__name__}, expected a class")
    return cls, path


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    # `python -m` puts the current directory first; a spec's modules are looked for where docs/plugins.md says only.
    if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
        del sys.path[0]
    # The command runs in C++ with the GIL released: let Ctrl-C stop it as it stops the plain executable.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    from spotsim import _spotsim
    return _spotsim.run_hosted_command(args)


if __name__ == "__main__":
    sys.exit(main())
