_METRES_PER_UNIT = {
    "mm": 0.001,
    "cm": 0.01,
    "m": 1.0,
    "km": 1000.0,
    "in": 0.0254,
    "ft": 0.3048,
    "mi": 1609.344,
}


def _factor(unit):
    try:
        return _METRES_PER_UNIT[unit]
    except KeyError:
        raise ValueError(f"unknown unit {unit!r}") from None


def to_metres(value, unit):
    return value * _factor(unit)


def convert(value, from_unit, to_unit):
    return to_metres(value, from_unit) / _factor(to_unit)
