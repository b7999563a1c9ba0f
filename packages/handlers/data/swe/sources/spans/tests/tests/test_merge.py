import pytest

from spans import merge_intervals, total_length


def test_overlapping():
    assert merge_intervals([(1, 4), (2, 6)]) == [(1, 6)]


def test_disjoint():
    assert merge_intervals([(1, 2), (4, 5)]) == [(1, 2), (4, 5)]


def test_unsorted_input():
    assert merge_intervals([(8, 9), (1, 3), (2, 4)]) == [(1, 4), (8, 9)]


def test_empty():
    assert merge_intervals([]) == []


def test_total_length():
    assert total_length([(0, 2), (1, 3), (10, 11)]) == 4


@pytest.mark.parametrize(
    ("intervals", "expected"),
    [([(1, 3), (3, 5)], [(1, 5)]), ([(0, 5), (5, 5)], [(0, 5)])],
    ids=["adjacent", "zero-width"],
)
def test_touching_intervals_merge(intervals, expected):
    assert merge_intervals(intervals) == expected
