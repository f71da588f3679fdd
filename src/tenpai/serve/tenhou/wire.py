"""Tenhou's wire format: self-closing tags like ``<D p="12"/>`` or ``<T23 t="16"/>``, each
followed by a NUL byte.

Client messages are untrusted input, so they are read with a small strict grammar instead of an
XML library: a tag name (letters, optionally followed by a number, as in ``<E45/>``), then
``name="value"`` attributes whose values hold no quote, ``<``, ``>`` or ``&``, then ``/>``.
Anything else — text, nesting, closing tags, entities, duplicate attributes, over-long messages,
bytes that are not UTF-8 — raises :class:`WireError` naming what was wrong.  The same parser
reads the server's messages in our client.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["MAX_MESSAGE", "Framer", "Tag", "WireError", "encode", "format_tag", "parse_tag"]

#: Longest message we accept (a REINIT with four full rivers and melds is under 1 KiB).
MAX_MESSAGE = 4096

_TAG = re.compile(r"<([A-Za-z]+)(\d{0,3})((?:\s+[A-Za-z][A-Za-z0-9_]*=\"[^\"<>&]*\")*)\s*/>")
_ATTR = re.compile(r"([A-Za-z][A-Za-z0-9_]*)=\"([^\"<>&]*)\"")


class WireError(ValueError):
    """A message that is not a well-formed Tenhou tag (the text says where it went wrong)."""


@dataclass(frozen=True, slots=True)
class Tag:
    """One parsed message: ``<T23 t="16"/>`` is ``Tag("T", 23, {"t": "16"})``."""

    name: str
    number: int | None = None
    attrs: Mapping[str, str] = field(default_factory=dict)

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrs.get(key, default)

    def int_attr(self, key: str) -> int:
        """An integer attribute; :class:`WireError` if it is missing or not a number."""
        raw = self.attrs.get(key)
        if raw is None:
            raise WireError(f"<{self.name}> lacks the attribute {key}")
        try:
            return int(raw)
        except ValueError:
            raise WireError(f"<{self.name}> {key}={raw!r} is not an integer") from None

    def int_list(self, key: str) -> list[int]:
        """A comma-separated list of integers (empty when the attribute is missing or empty)."""
        raw = self.attrs.get(key)
        if not raw:
            return []
        try:
            return [int(x) for x in raw.split(",")]
        except ValueError:
            raise WireError(f"<{self.name}> {key}={raw!r} is not a list of integers") from None


def parse_tag(text: str) -> Tag:
    """Parse one message (without its NUL)."""
    if len(text) > MAX_MESSAGE:
        raise WireError(f"message of {len(text)} characters (limit {MAX_MESSAGE})")
    stripped = text.strip()
    m = _TAG.fullmatch(stripped)
    if m is None:
        raise WireError(f"not a Tenhou tag: {stripped[:80]!r}")
    name, digits, rest = m.group(1), m.group(2), m.group(3)
    attrs: dict[str, str] = {}
    for key, value in _ATTR.findall(rest):
        if key in attrs:
            raise WireError(f"<{name}> repeats the attribute {key}")
        attrs[key] = value
    return Tag(name, int(digits) if digits else None, attrs)


def format_tag(name: str, attrs: Mapping[str, object] | None = None) -> str:
    """``<NAME a="1" b="x"/>``; values must not contain quotes or angle brackets."""
    parts = [f"<{name}"]
    for key, value in (attrs or {}).items():
        text = str(value)
        if any(c in text for c in '"<>&'):
            raise WireError(f"attribute {key}={text!r} cannot be written in a tag")
        parts.append(f' {key}="{text}"')
    parts.append("/>")
    return "".join(parts)


def encode(messages: list[str]) -> bytes:
    """Messages as they go on the wire: UTF-8, each followed by NUL."""
    return b"".join(m.encode("utf-8") + b"\0" for m in messages)


class Framer:
    """Splits a byte stream at NUL bytes; refuses a message longer than :data:`MAX_MESSAGE`
    bytes or one that is not UTF-8 (a peer sending either is broken or hostile)."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[str]:
        self._buf += data
        out: list[str] = []
        while True:
            i = self._buf.find(b"\0")
            if i < 0:
                break
            raw = bytes(self._buf[:i])
            del self._buf[: i + 1]
            if len(raw) > MAX_MESSAGE:
                raise WireError(f"message of {len(raw)} bytes (limit {MAX_MESSAGE})")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise WireError(f"message is not UTF-8: {exc.reason}") from None
            if text.strip():
                out.append(text)
        if len(self._buf) > MAX_MESSAGE:
            raise WireError(f"more than {MAX_MESSAGE} bytes without a NUL terminator")
        return out
