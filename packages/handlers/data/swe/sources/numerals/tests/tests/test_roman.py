import re
import unittest

from numerals import from_roman, to_roman


class ToRomanTest(unittest.TestCase):
    def test_additive_forms(self):
        self.assertEqual(to_roman(3), "III")
        self.assertEqual(to_roman(8), "VIII")
        self.assertEqual(to_roman(2023), "MMXXIII")

    def test_out_of_range(self):
        for number in (0, -1, 4000):
            with self.assertRaises(ValueError):
                to_roman(number)

    def test_subtractive_forms(self):
        cases = {4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD", 900: "CM", 1994: "MCMXCIV"}
        for number, expected in cases.items():
            self.assertEqual(to_roman(number), expected)


class FromRomanTest(unittest.TestCase):
    def test_parses_subtractive(self):
        self.assertEqual(from_roman("MCMXCIV"), 1994)

    def test_rejects_garbage(self):
        with self.assertRaises(ValueError):
            from_roman("ABC")


class CanonicalFormTest(unittest.TestCase):
    CANONICAL = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")

    def test_every_number_is_canonical(self):
        for number in range(1, 4000):
            numeral = to_roman(number)
            self.assertRegex(numeral, self.CANONICAL)
            self.assertEqual(from_roman(numeral), number)


if __name__ == "__main__":
    unittest.main()
