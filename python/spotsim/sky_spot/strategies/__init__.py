"""`from sky_spot.strategies import strategy` as strategy files write it."""
from . import strategy  # noqa: F401
