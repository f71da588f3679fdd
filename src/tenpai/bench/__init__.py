"""Benchmarks against peer libraries: same inputs, same process, peers imported lazily."""
