"""The docs cannot drift from the code (no database): named files exist, links resolve, the
reason-code table is the enum, the layout names every room. The README's examples themselves run
in ``tests/integration/test_readme.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg_context.vocabulary import Outcome, ReasonCode
from tests.docs_blocks import DOCS, README, REPO, section

MARKDOWN = [README, *DOCS]
_IDS = [str(p.relative_to(REPO)) for p in MARKDOWN]

CYPHER_PATH = re.compile(r"(?<![\w/.])cypher/[\w/.-]+?\.cypher\b")
# A backticked path into the repository (a file or a folder).
REPO_PATH = re.compile(r"`((?:kg_context|cypher|tests|benchmarks|browser|docs)/[\w/.-]*)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_docs_are_found() -> None:
    assert README.exists()
    names = {p.name for p in DOCS}
    assert {"architecture.md", "graph-model.md"} <= names


@pytest.mark.parametrize("path", MARKDOWN, ids=_IDS)
def test_every_named_cypher_file_exists(path: Path) -> None:
    named = set(CYPHER_PATH.findall(path.read_text(encoding="utf-8")))
    missing = sorted(n for n in named if not (REPO / n).is_file())
    assert not missing, f"{path.name} names Cypher files that do not exist: {missing}"


def test_the_readme_names_cypher_files() -> None:
    """The check above must have something to check."""
    named = set(CYPHER_PATH.findall(README.read_text(encoding="utf-8")))
    assert "cypher/audits/ledger.cypher" in named
    assert "cypher/invalidation/children.cypher" in named


@pytest.mark.parametrize("path", MARKDOWN, ids=_IDS)
def test_every_named_repository_path_exists(path: Path) -> None:
    named = set(REPO_PATH.findall(path.read_text(encoding="utf-8")))
    missing = sorted(n for n in named if not (REPO / n).exists())
    assert not missing, f"{path.name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("path", MARKDOWN, ids=_IDS)
def test_relative_links_resolve(path: Path) -> None:
    links = [
        link
        for link in LINK.findall(path.read_text(encoding="utf-8"))
        if "://" not in link and not link.startswith("mailto:")
    ]
    broken = sorted(link for link in links if not (path.parent / link).resolve().exists())
    assert not broken, f"{path.name} links to what a clone does not have: {broken}"
    assert "../shared/" not in path.read_text(encoding="utf-8")


def _reason_code_table() -> dict[str, str]:
    rows = re.findall(
        r"^\| `([A-Z_]+)` \| (\w+) \|", section(README, "### Reason codes"), flags=re.M
    )
    table = dict(rows)
    assert len(table) == len(rows), "a reason code is listed twice"
    return table


@pytest.mark.parametrize("outcome", [Outcome.REJECT, Outcome.HALT])
def test_the_readme_lists_exactly_the_reason_codes_by_outcome(outcome: Outcome) -> None:
    listed = {code for code, said in _reason_code_table().items() if said == outcome.value}
    assert listed == {c.value for c in ReasonCode if c.outcome is outcome}


def test_the_reason_code_table_has_no_other_outcome() -> None:
    assert set(_reason_code_table().values()) == {Outcome.REJECT.value, Outcome.HALT.value}


def test_the_layout_and_the_architecture_name_every_room() -> None:
    package = REPO / "kg_context"
    rooms = sorted(f"kg_context/{p.parent.name}/" for p in package.glob("*/__init__.py"))
    layout = section(README, "## Layout")
    architecture = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    for room in rooms:
        assert f"`{room}`" in layout, f"README's Layout does not name {room}"
        assert f"  {room.removeprefix('kg_context/')}" in architecture, room
    for module in sorted(package.glob("*.py")):
        if module.name != "__init__.py":
            assert f"`kg_context/{module.name}`" in layout, module.name
            assert f"  {module.name}" in architecture, module.name


def _layout_bullets() -> dict[str, str]:
    """README's Layout bullets by the room they start with (``kg_context/gate/`` -> text)."""
    bullets = re.split(r"^- ", section(README, "## Layout"), flags=re.M)
    found = {}
    for bullet in bullets:
        match = re.match(r"`(kg_context/\w+/)`:", bullet)
        if match:
            found[match.group(1)] = bullet
    return found


def test_the_layout_names_every_module_of_the_rooms_it_lists_file_by_file() -> None:
    bullets = _layout_bullets()
    assert {"kg_context/gate/", "kg_context/db/"} <= set(bullets)
    for room, text in bullets.items():
        modules = sorted(p.name for p in (REPO / room).glob("*.py") if not p.name.startswith("__"))
        missing = [m for m in modules if f"`{m}`" not in text]
        assert not missing, f"README's Layout lists {room} without {missing}"
