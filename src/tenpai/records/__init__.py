"""Game records: read every supported format into :class:`Game` (rounds of events), write
mjai, tenhou.net/6, mjlog and Botzone's judge logs and match exports back out.  See
docs/records.md for the conventions."""

from tenpai.records.errors import (
    RecordContentError,
    RecordError,
    RecordSyntaxError,
    RecordTooLargeError,
    RecordTruncatedError,
    UnknownFormatError,
)
from tenpai.records.formats import (
    FORMATS,
    WRITE_FORMATS,
    detect_format,
    read_any,
    read_games,
    write_game,
)
from tenpai.records.game import Game, RuleFlags

__all__ = [
    "FORMATS",
    "WRITE_FORMATS",
    "Game",
    "RecordContentError",
    "RecordError",
    "RecordSyntaxError",
    "RecordTooLargeError",
    "RecordTruncatedError",
    "RuleFlags",
    "UnknownFormatError",
    "detect_format",
    "read_any",
    "read_games",
    "write_game",
]
