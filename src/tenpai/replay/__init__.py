"""Replaying real records through the rules engines to verify both."""
