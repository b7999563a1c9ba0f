from depless import word_count


def test_simple():
    assert word_count("a b c") == 3
