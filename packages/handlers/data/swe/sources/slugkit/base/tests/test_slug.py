import unittest

from slugkit import slugify


class SlugifyTest(unittest.TestCase):
    def test_lowercases(self):
        self.assertEqual(slugify("ABC"), "abc")

    def test_transliterates_accents(self):
        self.assertEqual(slugify("Crème brûlée"), "creme-brulee")

    def test_custom_separator(self):
        self.assertEqual(slugify("a b c", separator="_"), "a_b_c")

    def test_collapses_runs(self):
        self.assertEqual(slugify("a  --  b"), "a-b")


if __name__ == "__main__":
    unittest.main()
