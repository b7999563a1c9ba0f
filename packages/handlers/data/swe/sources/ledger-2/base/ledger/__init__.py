from .book import Ledger

__all__ = ["Ledger"]
