"""Progress of the module's sweeps: a bar in a notebook, one line on stderr in a terminal, nothing otherwise.

The unit is what Python can see: one simulate() call (a sweep cell). Debian's tqdm draws it when installed
(python3-tqdm; its widget bar needs ipywidgets, else the text bar); without tqdm a line of our own, redrawn at most
once a second with cells done/total, rate and ETA (the CLI's progress line, docs/STYLE.md). Progress is only
reported: it never changes a result.
"""
import sys
import time


def _in_notebook():
    """True inside a Jupyter kernel (where stderr is not a terminal but a bar is still wanted)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        return type(shell.get_ipython()).__name__ == "ZMQInteractiveShell"
    except Exception:  # IPython imported but not running a shell
        return False


def wanted(progress):
    """progress=None: on in a notebook or when stderr is a terminal; True/False force it."""
    if progress is None:
        return _in_notebook() or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())
    if not isinstance(progress, bool):
        raise TypeError(f"progress: expected True, False or None, got {progress!r}")
    return progress


def _format_seconds(seconds):
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class TextProgress:
    """'sweep: 12/40 cells, 3.1 cells/s, ETA 9s' on one line, rewritten in place at most once a second."""

    def __init__(self, total, description, stream=None, min_interval=1.0):
        self.total, self.description = total, description
        self.stream = stream if stream is not None else sys.stderr
        self.min_interval = min_interval
        self.done = 0
        self._start = self._shown = time.monotonic()

    def update(self, n=1):
        self.done += n
        now = time.monotonic()
        if now - self._shown >= self.min_interval or self.done >= self.total:
            self._shown = now
            self._draw(now)

    def _draw(self, now):
        elapsed = max(now - self._start, 1e-9)
        rate = self.done / elapsed
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        self.stream.write(f"\r{self.description}: {self.done}/{self.total} cells, {rate:.2g} cells/s, "
                          f"ETA {_format_seconds(eta)}   ")
        self.stream.flush()

    def close(self):
        self.stream.write(f"\r{self.description}: {self.done}/{self.total} cells in "
                          f"{_format_seconds(time.monotonic() - self._start)}".ljust(60) + "\n")
        self.stream.flush()


class _Silent:
    def update(self, n=1):
        pass

    def close(self):
        pass


def _tqdm_bar(total, description, notebook):
    try:
        if notebook:
            try:
                import ipywidgets  # noqa: F401  (tqdm's notebook bar is a widget)
                from tqdm.notebook import tqdm
                return tqdm(total=total, desc=description, unit="cell")
            except ImportError:
                pass
        from tqdm import tqdm
        return tqdm(total=total, desc=description, unit="cell", file=sys.stderr, mininterval=1.0)
    except ImportError:
        return None


def progress_bar(total, description, progress=None):
    """An object with update(n=1) and close(): tqdm's bar, TextProgress, or nothing (progress False or not wanted)."""
    if not wanted(progress):
        return _Silent()
    return _tqdm_bar(total, description, _in_notebook()) or TextProgress(total, description)
