"""Currency conversion and formatting."""

from .money import convert, format_amount
from .settings import PROFILE

__all__ = ["PROFILE", "convert", "format_amount"]
