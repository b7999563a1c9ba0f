from depless import word_count


def test_simple():
    assert word_count("a b c") == 3


def test_repeated_spaces():
    assert word_count("a  b   c") == 3
