def merge_intervals(intervals):
    """Merges overlapping closed intervals ``(start, end)``; returns sorted tuples."""
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [tuple(pair) for pair in merged]


def total_length(intervals):
    """Length covered by the union of the intervals."""
    return sum(end - start for start, end in merge_intervals(intervals))
