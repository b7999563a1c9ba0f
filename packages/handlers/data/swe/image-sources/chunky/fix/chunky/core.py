import itertools


def chunks(items, size, *, strict=False):
    """Consecutive lists of `size` items; with strict=True a short last chunk is a ValueError."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return [list(batch) for batch in itertools.batched(items, size, strict=strict)]
