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

    def test_strips_trailing_punctuation(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")

    def test_strips_leading_whitespace(self):
        """Leading whitespace must not become a separator."""
        self.assertEqual(slugify("  spaced out"), "spaced-out")

    def test_custom_separator_is_stripped(self):
        self.assertEqual(slugify("(a b)", separator="_"), "a_b")


if __name__ == "__main__":
    unittest.main()
