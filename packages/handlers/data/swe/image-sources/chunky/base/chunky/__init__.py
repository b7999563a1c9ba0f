"""Split sequences into fixed-size chunks."""

from .core import chunks

__version__ = "1.2.0"
__all__ = ["chunks"]
