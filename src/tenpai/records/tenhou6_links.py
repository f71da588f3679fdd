"""tenhou.net/6 JSON carried inside viewer links (``https://tenhou.net/6/#json={...}``).

Pages and notes that share a game (M-League transcriptions, blog posts, chat logs) often hold
the record only as a viewer link, sometimes one link per round, sometimes URL-encoded.  This
module finds the links in such a text and returns the JSON objects they carry, so the
tenhou.net/6 reader can treat the text like a file with one object per line.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

from tenpai.records.errors import RecordSyntaxError

__all__ = ["has_viewer_link", "objects_from_links"]

#: ``tenhou.net/<version>/`` then ``#json=`` or ``?json=`` (the viewer accepts both).
_LINK = re.compile(r"tenhou\.net/\d+/?[#?]json=")
_DECODER = json.JSONDecoder()


def has_viewer_link(text: str) -> bool:
    """Whether the text holds at least one tenhou.net viewer link with inline JSON."""
    return _LINK.search(text) is not None


def objects_from_links(text: str, source: str = "<memory>") -> list[tuple[int, Any]]:
    """(line number, decoded JSON value) of every viewer link in ``text``, in order.

    The JSON is taken exactly as far as it parses (the link may be followed by more text on
    the same line); a link whose JSON starts URL-encoded (``%7B``) is decoded first.  A link
    whose JSON does not parse raises :class:`RecordSyntaxError` naming its line.
    """
    out: list[tuple[int, Any]] = []
    for m in _LINK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        rest = text[m.end() :]
        if rest[:3].upper() == "%7B":
            end = len(rest)
            for stop in (" ", "\t", "\n", "\r", '"', "'", "<", ">"):
                i = rest.find(stop)
                if i != -1:
                    end = min(end, i)
            rest = unquote(rest[:end])
        try:
            value, _ = _DECODER.raw_decode(rest)
        except json.JSONDecodeError as exc:
            raise RecordSyntaxError(
                f"bad JSON in a viewer link: {exc.msg}", source, f"line {line}"
            ) from exc
        out.append((line, value))
    return out
