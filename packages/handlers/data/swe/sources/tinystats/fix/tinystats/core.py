from collections import Counter


def mean(values):
    """Arithmetic mean of a non-empty sequence."""
    values = list(values)
    if not values:
        raise ValueError("mean() of an empty sequence")
    return sum(values) / len(values)


def median(values):
    """Middle value of a non-empty sequence."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("median() of an empty sequence")
    middle = len(ordered) // 2
    if len(ordered) % 2 == 0:
        return (ordered[middle - 1] + ordered[middle]) / 2
    return ordered[middle]


def mode(values):
    """Most common value; ties go to the value seen first."""
    counts = Counter(values)
    if not counts:
        raise ValueError("mode() of an empty sequence")
    best = max(counts.values())
    for value in values:
        if counts[value] == best:
            return value
