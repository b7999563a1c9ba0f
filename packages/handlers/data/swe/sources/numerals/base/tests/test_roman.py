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


class FromRomanTest(unittest.TestCase):
    def test_parses_subtractive(self):
        self.assertEqual(from_roman("MCMXCIV"), 1994)

    def test_rejects_garbage(self):
        with self.assertRaises(ValueError):
            from_roman("ABC")


if __name__ == "__main__":
    unittest.main()
