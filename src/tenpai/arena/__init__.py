"""Tournaments between agents: duplicate deals, statistics, results store, reports."""
