"""Keyword arguments shared by simulate() and sweep(): the job options of ``spotsim simulate``.

Durations are strings with a unit, exactly as on the command line ("48h", "90s", "1.5d"), or datetime.timedelta.
A bare number is refused with the CLI's message: the unit is the most common mistake in a simulation input.
"""
import datetime

# The CLI's job options (spotsim simulate --help), '-' written '_'.
JOB_OPTIONS = ("job", "work", "steps", "step_time", "nodes", "checkpoint_write", "restore", "startup", "deadline",
               "give_up_after")
DURATION_OPTIONS = {"work", "step_time", "checkpoint_write", "restore", "startup", "deadline", "give_up_after", "reconfigure",
                    "trace_start", "tick"}


def duration_text(value):
    """A timedelta as the CLI's millisecond duration ("5400000ms"); anything else unchanged."""
    if isinstance(value, datetime.timedelta):
        return f"{round(value.total_seconds() * 1000)}ms"
    return value


def cli_options(**options):
    """The options dict the C++ side reads: None means 'not given', timedeltas become duration strings."""
    return {key: duration_text(value) if key in DURATION_OPTIONS else value
            for key, value in options.items() if value is not None}
