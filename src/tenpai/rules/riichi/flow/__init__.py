"""The Riichi game flow: a round state machine on the shared engine, and its wall."""
