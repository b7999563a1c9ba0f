import functools


def parse(version):
    """Components of ``MAJOR.MINOR.PATCH`` (an optional leading ``v`` is ignored)."""
    parts = version.strip().removeprefix("v").split(".")
    if len(parts) != 3:
        raise ValueError(f"expected MAJOR.MINOR.PATCH, got {version!r}")
    return tuple(parts)


def compare(left, right):
    """-1, 0 or 1 as ``left`` is older than, equal to or newer than ``right``."""
    a, b = parse(left), parse(right)
    return (a > b) - (a < b)


def max_version(versions):
    """The newest of the given versions."""
    return max(versions, key=functools.cmp_to_key(compare))
