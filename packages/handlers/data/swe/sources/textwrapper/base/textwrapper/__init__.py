"""Greedy word wrapping."""

from .wrap import wrap

__all__ = ["wrap"]
