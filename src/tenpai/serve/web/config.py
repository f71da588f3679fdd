"""The web app's start-up settings, kept apart from the routes so tests can build variants."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tenpai.serve.web.sessions import Limits

__all__ = ["WebConfig"]


@dataclass(frozen=True, slots=True)
class WebConfig:
    """Folders the client may open records from, and the limits the server enforces.

    ``records`` are the only places on disk the client can reach; every other path is refused.
    """

    records: tuple[Path, ...] = ()
    limits: Limits = field(default_factory=Limits)
    cookie_name: str = "tenpai_session"
