from ._rates import RATES


def convert(amount, from_currency, to_currency):
    return amount / RATES[from_currency] * RATES[to_currency]


def format_amount(amount, currency):
    decimals = 0 if currency == "JPY" else 2
    return f"{amount:.{decimals}f} {currency}"
