// The records are the engine's `BenchmarkRunStore` port types; re-exported under their old home.

export {};
