from .summary import median, percentile

__all__ = ["median", "percentile"]
