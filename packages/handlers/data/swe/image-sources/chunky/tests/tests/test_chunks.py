import unittest

import chunky
from chunky import chunks


class ChunksTest(unittest.TestCase):
    def test_even(self):
        self.assertEqual(chunks([1, 2, 3, 4], 2), [[1, 2], [3, 4]])

    def test_rejects_zero_size(self):
        with self.assertRaises(ValueError):
            chunks([1], 0)

    def test_checkout_version(self):
        """The package under test is the checkout's, not an installed release."""
        self.assertEqual(chunky.__version__, "1.2.0")

    def test_short_last_chunk(self):
        self.assertEqual(chunks([1, 2, 3], 2), [[1, 2], [3]])

    def test_strict_rejects_short_last_chunk(self):
        with self.assertRaises(ValueError):
            chunks([1, 2, 3], 2, strict=True)


if __name__ == "__main__":
    unittest.main()
