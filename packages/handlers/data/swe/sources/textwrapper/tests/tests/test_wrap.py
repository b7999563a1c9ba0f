import pytest

from textwrapper import wrap


def test_wraps_words():
    assert wrap("the quick brown fox", 10) == ["the quick", "brown fox"]


def test_exact_width():
    assert wrap("abc def", 7) == ["abc def"]


def test_empty_text():
    assert wrap("", 5) == []


def test_invalid_width():
    with pytest.raises(ValueError):
        wrap("text", 0)


def test_long_word_is_split():
    assert wrap("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_long_word_after_short_word():
    assert wrap("a bcdefgh", 3) == ["a", "bcd", "efg", "h"]
