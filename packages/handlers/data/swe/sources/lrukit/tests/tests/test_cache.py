import pytest

from lrukit import LRUCache


class TestLRUCache:
    def test_put_and_get(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        assert cache.get("a") == 1

    def test_missing_key_default(self):
        assert LRUCache(1).get("nope", 42) == 42

    def test_evicts_least_recent_put(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        cache.put("b", 2)
        cache.put("c", 3)
        assert "a" not in cache
        assert len(cache) == 2

    def test_overwrite_keeps_size(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        cache.put("a", 2)
        assert len(cache) == 1
        assert cache.get("a") == 2

    def test_get_refreshes_recency(self):
        cache = LRUCache(2)
        cache.put("a", 1)
        cache.put("b", 2)
        assert cache.get("a") == 1
        cache.put("c", 3)
        assert "a" in cache
        assert "b" not in cache

    def test_keys_in_recency_order(self):
        cache = LRUCache(3)
        for key in "xyz":
            cache.put(key, key.upper())
        cache.get("x")
        print("recency order:", cache.keys())
        assert cache.keys() == ["y", "z", "x"]


def test_capacity_must_be_positive():
    with pytest.raises(ValueError):
        LRUCache(0)
