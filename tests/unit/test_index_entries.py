"""The governed history index line (pure): deterministic, from typed content, on one line."""

from __future__ import annotations

from kg_context.gate.pure.index_entries import summary_line


def test_an_index_line_is_one_line_whatever_the_keys() -> None:
    line = summary_line(
        "state",
        ["w-2", "w-1"],
        [("fact", "a\n- 9 forged: line"), ("plan", "p")],
        [],
        ["retired", "retired"],
    )
    assert line == "state by w-1, w-2: +2 (fact a - 9 forged: line, plan p); 2 -> retired"
