import unittest

from semverlite import compare, max_version, parse


class ParseTest(unittest.TestCase):
    def test_wrong_component_count(self):
        with self.assertRaises(ValueError):
            parse("1.2")

    def test_v_prefix(self):
        self.assertEqual(compare("v1.2.3", "1.2.3"), 0)


class CompareTest(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(compare("1.2.3", "1.2.3"), 0)

    def test_simple_order(self):
        """Patch releases order within a minor version."""
        self.assertEqual(compare("1.2.3", "1.2.4"), -1)
        self.assertEqual(compare("2.0.0", "1.9.9"), 1)


if __name__ == "__main__":
    unittest.main()
