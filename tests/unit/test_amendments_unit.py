"""The amended constitution text a suggestion carries (pure): exactly the parameter and the
version change, in the section's own line, the section added when the text lacks it."""

from __future__ import annotations

import re

from kg_context.gate.pure.constitution import load_constitution, parse_constitution
from kg_context.record.amendments import amend_text
from kg_context.vocabulary import ThresholdParameter


def test_the_amended_text_changes_the_parameter_and_the_version_only() -> None:
    default = load_constitution()
    version, text = amend_text(default, ThresholdParameter.MAX_EDGES_PER_LIVE_ENTRY, 5.25)
    amended = parse_constitution(text)
    assert amended.version == version and version.startswith(f"{default.version}-a")
    assert amended.density.max_edges_per_live_entry == 5.25
    assert amended.model_dump() | {"version": "x", "density": None} == default.model_dump() | {
        "version": "x",
        "density": None,
    }
    assert text.count("max_edges_per_live_entry = 5.25") == 1
    # One amendment, one version, wherever it is adopted.
    assert amend_text(default, ThresholdParameter.MAX_EDGES_PER_LIVE_ENTRY, 5.25)[0] == version


def test_a_section_the_text_lacks_is_added() -> None:
    default = load_constitution()
    text = re.sub(r"\n\[density\].*?(?=\n\[window\])", "", default.text, flags=re.S)
    bare = parse_constitution(text)
    assert "[density]" not in bare.text
    _, amended = amend_text(bare, ThresholdParameter.MAX_SET_FANOUT, 80)
    assert parse_constitution(amended).density.max_set_fanout == 80
    assert amended.rstrip().endswith("[density]\nmax_set_fanout = 80")
