"""Length conversions between metric and imperial units."""

from .length import convert, to_metres

__all__ = ["convert", "to_metres"]
