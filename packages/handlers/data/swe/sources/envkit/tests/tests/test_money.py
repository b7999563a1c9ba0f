from envkit import PROFILE, convert, format_amount


def test_profile():
    assert PROFILE == "test"


def test_convert():
    assert convert(100, "EUR", "USD") == 125.0


def test_format_small():
    assert format_amount(3.5, "EUR") == "3.50 EUR"


def test_format_thousands_separator():
    assert format_amount(1234567.891, "USD") == "1,234,567.89 USD"


def test_format_negative_yen():
    assert format_amount(-12000, "JPY") == "-12,000 JPY"
