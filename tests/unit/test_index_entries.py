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


def test_an_index_line_names_its_writers_in_its_summary_and_keeps_no_copy_of_the_sets_list() -> (
    None
):
    from types import SimpleNamespace
    from typing import Any, cast

    from kg_context.gate.pure.index_entries import constitution_index_props

    ctx = SimpleNamespace(
        boundary_id="b",
        now="2026-01-01T00:00:00Z",
        constitution=SimpleNamespace(version="1"),
        record_id=lambda set_id, *parts: "/".join(["b", set_id, *map(str, parts)]),
    )
    props = constitution_index_props(cast(Any, ctx), "s-1", 3, "operator", "2")
    assert "writer_ids" not in props  # the set it INDEXES holds them
    assert props["summary"] == "constitution by operator: 1 -> 2"
    assert (props["id"], props["set_id"], props["seq"]) == ("b/s-1/index", "s-1", 3)
