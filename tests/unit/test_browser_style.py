"""The shipped Neo4j Browser style, read the way Browser 5.24 reads it.

``parse_grass`` is a line-for-line port of Browser's own parser (``parseGrass`` in its bundle,
``neo4j-browser-5.24.0.jar``): it has no comments, so any text before the first ``{`` becomes
part of the first rule's selector (the defect this file once had: a leading comment swallowed
the base ``node`` rule). Every label an operator meets has its rule, so Browser never invents a
colour for one; every relationship type the graph model has is styled too.
"""

from __future__ import annotations

import re
from pathlib import Path

from kg_context.vocabulary import (
    CLASS_LABELS,
    RESIDENT_LABEL,
    STATUS_LABELS,
    HaltStatus,
    ReceiptKind,
    SetStatus,
)

REPO = Path(__file__).resolve().parents[2]
GRASS = REPO / "browser" / "kg-context.grass"

STRUCTURAL = ("Boundary", "Constitution", "Writer", "Set", "Receipt", "Halt", "Proposal",
              "ProposalNode", "Specialist", "Task", "Target", "Entry")  # fmt: skip


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Neo4j Browser's GraSS parser (shared/services/grassUtils), ported."""
    in_string = in_rule = in_nested = False
    selector, body = "", ""
    rules: dict[str, str] = {}
    for char in text:
        keep = True
        if char == "{":
            if in_string:
                keep = False
            elif in_rule:
                in_nested = True
            else:
                in_rule = True
        elif char == "}":
            if in_string:
                keep = False
            elif in_nested:
                in_nested = False
            else:
                in_rule = False
                rules[selector] = body
                selector, body = "", ""
        elif char in "'\"":
            in_string = not in_string
        else:
            keep = False
        if not keep:
            if in_rule:
                body += char
            elif not re.match(r"\s", char):
                selector += char
    parsed: dict[str, dict[str, str]] = {}
    for key, raw in rules.items():
        props: dict[str, str] = {}
        for declaration in raw.split(";"):
            parts = declaration.split(":")
            if len(parts) == 2:
                props[parts[0].strip()] = parts[1].strip()
        parsed[key] = props
    return parsed


def _node_labels_of_the_model() -> set[str]:
    entry_labels = {*CLASS_LABELS.values(), *STATUS_LABELS.values(), RESIDENT_LABEL}
    statuses = {s.value.capitalize() for s in (*SetStatus, *HaltStatus)}
    receipts = {f"{k.value.capitalize()}Receipt" for k in ReceiptKind}
    return {*STRUCTURAL, *entry_labels, *statuses, *receipts}


def _relationship_types_in_cypher() -> set[str]:
    types: set[str] = set()
    for path in (REPO / "cypher").rglob("*.cypher"):
        if path.parts[-2] in {"bench", "browser", "audits"}:
            continue
        types.update(re.findall(r"\[\w*:([A-Z_]+)[\s\]{*]", path.read_text(encoding="utf-8")))
    return types


def test_the_parser_port_reproduces_the_leading_comment_defect() -> None:
    broken = parse_grass("/* a style */\nnode { color: #fff; }\nnode.Set { caption: '{seq}'; }")
    assert "node" not in broken and any(k.endswith("node") for k in broken)
    assert parse_grass("node.Set { caption: '{seq}'; }") == {"node.Set": {"caption": "{seq}"}}


def test_the_style_parses_with_the_base_rule_first() -> None:
    rules = parse_grass(GRASS.read_text(encoding="utf-8"))
    assert next(iter(rules)) == "node"
    assert rules["node"]["diameter"] == "50px" and rules["relationship"]["caption"] == "<type>"
    for selector, props in rules.items():
        assert re.fullmatch(r"(node|relationship)(\.\w+)?", selector), selector
        assert props, f"{selector} has no property Browser can read"


def test_every_label_an_operator_meets_is_styled() -> None:
    rules = parse_grass(GRASS.read_text(encoding="utf-8"))
    styled = {s.removeprefix("node.") for s in rules if s.startswith("node.")}
    assert _node_labels_of_the_model() <= styled, _node_labels_of_the_model() - styled
    assert "color" in rules["node.Open"] and "color" in rules["node.Resolved"]
    assert all("color" in rules[f"node.{s.value.capitalize()}"] for s in SetStatus)


def test_every_relationship_type_is_styled() -> None:
    rules = parse_grass(GRASS.read_text(encoding="utf-8"))
    styled = {s.removeprefix("relationship.") for s in rules if s.startswith("relationship.")}
    found = _relationship_types_in_cypher()
    assert {"CONTAINS", "SUPERSEDES", "REQUIRES", "ON", "PROPOSED_BY"} <= found
    assert found <= styled, found - styled


def test_status_colours_come_after_class_captions_and_residency_last() -> None:
    """Browser merges matching rules in file order: the status colour must win over anything
    a class rule says, and :Resident's size over all."""
    order = list(parse_grass(GRASS.read_text(encoding="utf-8")))
    last_class = max(order.index(f"node.{label}") for label in CLASS_LABELS.values())
    first_status = min(order.index(f"node.{label}") for label in STATUS_LABELS.values())
    assert last_class < first_status < order.index(f"node.{RESIDENT_LABEL}")
    assert order.index("node.Entry") < last_class
