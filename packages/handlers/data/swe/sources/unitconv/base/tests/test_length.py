import pytest

from unitconv import convert, to_metres


def test_to_metres():
    assert to_metres(3, "km") == 3000.0


def test_unknown_unit():
    with pytest.raises(ValueError):
        to_metres(1, "furlong")


def test_identity():
    assert convert(5, "m", "m") == 5
