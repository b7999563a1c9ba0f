import pytest

from unitconv import convert, to_metres


def test_to_metres():
    assert to_metres(3, "km") == 3000.0


def test_unknown_unit():
    with pytest.raises(ValueError):
        to_metres(1, "furlong")


def test_identity():
    assert convert(5, "m", "m") == 5


def test_km_to_m():
    assert convert(2, "km", "m") == pytest.approx(2000)


def test_ft_to_in():
    assert convert(1, "ft", "in") == pytest.approx(12)


def test_unknown_target_unit():
    with pytest.raises(ValueError):
        convert(1, "m", "furlong")
