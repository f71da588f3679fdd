"""A command-line refusal as the user must see it: exit status 2 and one line on stderr naming
what was wrong, never a traceback (issue 39, items 7 and 8).  Shared by the hardening tests of
every entry point, so they all hold a refusal to the same standard."""

from __future__ import annotations

from typer.testing import Result


def one_line(res: Result, *words: str) -> str:
    """The single stderr line of a refused command, after checking it holds each of ``words``."""
    assert res.exit_code == 2, (res.exit_code, res.output[-1500:], res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in res.stderr, res.stderr[-1500:]
    for w in words:
        assert w in err[0], err[0]
    return err[0]
