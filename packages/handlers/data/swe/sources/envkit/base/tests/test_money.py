from envkit import PROFILE, convert, format_amount


def test_profile():
    assert PROFILE == "test"


def test_convert():
    assert convert(100, "EUR", "USD") == 125.0


def test_format_small():
    assert format_amount(3.5, "EUR") == "3.50 EUR"
