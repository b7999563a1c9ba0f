import unittest

from stats import median, percentile


class MedianTest(unittest.TestCase):
    def test_odd(self):
        self.assertEqual(median([3, 1, 2]), 2)

    def test_even(self):
        self.assertEqual(median([4, 1, 3, 2]), 2.5)

    def test_empty(self):
        with self.assertRaises(ValueError):
            median([])


class PercentileTest(unittest.TestCase):
    def test_interpolates(self):
        self.assertAlmostEqual(percentile([1, 2, 3, 4], 50), 2.5)
        self.assertAlmostEqual(percentile([10, 20, 30, 40, 50], 10), 14.0)

    def test_bounds(self):
        self.assertEqual(percentile([5, 1, 9], 0), 1)
        self.assertEqual(percentile([5, 1, 9], 100), 9)

    def test_refuses(self):
        for values, p in (([], 50), ([1, 2], -1), ([1, 2], 101)):
            with self.assertRaises(ValueError):
                percentile(values, p)


if __name__ == "__main__":
    unittest.main()
