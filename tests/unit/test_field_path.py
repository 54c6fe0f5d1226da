"""Validation errors stay one printable line whatever keys a writer sends (found by the
10,000-example contract fuzz: an unknown key "\\n" put a newline in the error message)."""

from __future__ import annotations

import pytest

from kg_context.errors import InputValidationError, field_path
from kg_context.gate.pure.contracts import parse_proposal


def test_a_location_is_one_printable_line() -> None:
    assert field_path(("entries", 0, "key")) == "entries.0.key"
    assert field_path(("\n",)) == "'\\n'"
    assert field_path(("",)) == "''"
    assert field_path((" x",)) == "' x'"
    long = field_path(("k" * 10_000,))
    assert len(long) == 60 and long.endswith("...")


@pytest.mark.parametrize("key", ["\n", "a\r\nb", "", "\x00", "k" * 100_000])
def test_an_unknown_key_never_breaks_the_error_message(key: str) -> None:
    with pytest.raises(InputValidationError) as raised:
        parse_proposal({"id": "p", "boundary_id": "b", key: 1})
    message = str(raised.value)
    assert message.startswith("malformed proposal") and message.isprintable()
    assert len(message) < 2_000
