def chunks(items, size, *, strict=False):
    """Consecutive lists of `size` items; with strict=True a short last chunk is a ValueError."""
    if size < 1:
        raise ValueError("size must be at least 1")
    items = list(items)
    return [items[start : start + size] for start in range(0, len(items) - size + 1, size)]
