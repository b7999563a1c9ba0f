"""Summary statistics of lists of numbers."""


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def percentile(values, p):
    ordered = sorted(values)
    index = int(len(ordered) * p / 100)
    return ordered[min(index, len(ordered) - 1)]
