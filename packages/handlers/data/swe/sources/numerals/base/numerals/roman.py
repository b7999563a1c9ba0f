_SYMBOLS = [
    (1000, "M"),
    (500, "D"),
    (100, "C"),
    (50, "L"),
    (10, "X"),
    (5, "V"),
    (1, "I"),
]
_LETTERS = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def to_roman(number):
    """Roman numeral of an integer from 1 to 3999."""
    if not 0 < number < 4000:
        raise ValueError("number must be between 1 and 3999")
    parts = []
    for value, symbol in _SYMBOLS:
        count, number = divmod(number, value)
        parts.append(symbol * count)
    return "".join(parts)


def from_roman(text):
    """Integer value of a Roman numeral (subtractive forms included)."""
    if not text or any(letter not in _LETTERS for letter in text):
        raise ValueError(f"not a Roman numeral: {text!r}")
    total = 0
    for index, letter in enumerate(text):
        value = _LETTERS[letter]
        following = _LETTERS[text[index + 1]] if index + 1 < len(text) else 0
        total += -value if value < following else value
    return total
