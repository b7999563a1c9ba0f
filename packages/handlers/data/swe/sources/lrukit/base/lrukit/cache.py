from collections import OrderedDict


class LRUCache:
    """Mapping with a fixed capacity that evicts the least recently used key."""

    def __init__(self, capacity):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._entries = OrderedDict()

    def get(self, key, default=None):
        if key not in self._entries:
            return default
        return self._entries[key]

    def put(self, key, value):
        if key in self._entries:
            self._entries.move_to_end(key)
        self._entries[key] = value
        if len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def keys(self):
        """Keys from least to most recently used."""
        return list(self._entries)

    def __contains__(self, key):
        return key in self._entries

    def __len__(self):
        return len(self._entries)
