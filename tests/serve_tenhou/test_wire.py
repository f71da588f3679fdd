"""The strict tag parser: what a client may send, and everything it must refuse."""

from __future__ import annotations

import pytest

from tenpai.serve.tenhou.wire import MAX_MESSAGE, Framer, Tag, WireError, format_tag, parse_tag


def test_tags_of_both_sides_parse() -> None:
    assert parse_tag('<D p="12"/>') == Tag("D", None, {"p": "12"})
    assert parse_tag("<T23 t=\"16\"/>") == Tag("T", 23, {"t": "16"})
    assert parse_tag("<e45/>") == Tag("e", 45, {})
    assert parse_tag("<N />") == Tag("N", None, {})
    assert parse_tag('<HELO name="NoName" tid="f0" sx="M" />').get("tid") == "f0"
    tag = parse_tag('<INIT seed="0,0,0,1,2,33" ten="250,250,250,250" oya="0" hai="1,2"/>')
    assert tag.int_list("seed") == [0, 0, 0, 1, 2, 33] and tag.int_attr("oya") == 0


@pytest.mark.parametrize(
    "text",
    [
        "<D p='12'/>",  # single quotes
        '<D p="12">',  # not self-closing
        '<D p="12"/><D p="13"/>',  # two tags in one message
        "hello",
        '<D p="1&amp;2"/>',  # entities
        '<D p="1" p="2"/>',  # repeated attribute
        '<!DOCTYPE x [<!ENTITY a "b">]><D/>',
        '<D p="<"/>',
        "<1D/>",
        "",
    ],
)
def test_malformed_messages_are_refused(text: str) -> None:
    with pytest.raises(WireError):
        parse_tag(text)


def test_typed_attribute_errors_name_the_place() -> None:
    with pytest.raises(WireError, match="<D> p='x' is not an integer"):
        parse_tag('<D p="x"/>').int_attr("p")
    with pytest.raises(WireError, match="lacks the attribute p"):
        parse_tag("<D/>").int_attr("p")


def test_framer_splits_at_nul_and_refuses_floods_and_bad_bytes() -> None:
    f = Framer()
    assert f.feed(b'<Z/>\x00<D p="1"') == ["<Z/>"]
    assert f.feed(b'/>\x00\x00') == ['<D p="1"/>']
    with pytest.raises(WireError, match="without a NUL"):
        Framer().feed(b"x" * (MAX_MESSAGE + 1))
    with pytest.raises(WireError, match="not UTF-8"):
        Framer().feed(b"\xff\xfe\x00")


def test_format_refuses_values_it_cannot_write() -> None:
    assert format_tag("N", {"type": 1, "hai0": 4}) == '<N type="1" hai0="4"/>'
    with pytest.raises(WireError):
        format_tag("UN", {"n0": 'a"b'})
