"""What an external seat leaves behind after a game: the arena stores mjai and Botzone seats'
reports alike (``tenpai.arena.record._protocol_records``), so both protocols fill one class."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["SeatReport"]


@dataclass(slots=True)
class SeatReport:
    """One external seat's protocol record in one game: decisions asked, and the errors by
    kind with the first example of each."""

    seat: int
    agent: str
    decisions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)

    def charge(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        self.examples.setdefault(kind, detail[:300])
