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


NAME_LIST_OPTIONS = {"regions", "zones"}


def name_list_text(value):
    """A list or tuple of zone or region names as the CLI's comma-separated text; a string unchanged."""
    if isinstance(value, (list, tuple)):
        return ",".join(str(name) for name in value)
    return value


def cli_options(**options):
    """The options dict the C++ side reads: None means 'not given', timedeltas become duration strings, lists of
    zones or regions comma-separated text."""
    def text(key, value):
        if key in DURATION_OPTIONS:
            return duration_text(value)
        return name_list_text(value) if key in NAME_LIST_OPTIONS else value

    return {key: text(key, value) for key, value in options.items() if value is not None}
