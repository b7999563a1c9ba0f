"""URL slugs from arbitrary text."""

from .slug import slugify

__all__ = ["slugify"]
