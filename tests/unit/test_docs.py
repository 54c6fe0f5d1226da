"""The docs cannot drift from the code (no database): named files exist, links resolve, the
reason-code table is the enum, the layout names every room, every page is in the site's nav. The
examples of the README and docs/ themselves run in ``tests/integration/test_readme.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg_context.vocabulary import Outcome, ReasonCode
from tests.docs_blocks import DOCS, GUIDES, README, REPO, RUN_ORDER, section

MARKDOWN = [README, *DOCS]
GETTING_STARTED = REPO / "docs" / "getting-started.md"
ANALYSTS = REPO / "docs" / "analysts.md"
ARCHITECTURE = REPO / "docs" / "architecture.md"
_IDS = [str(p.relative_to(REPO)) for p in MARKDOWN]

CYPHER_PATH = re.compile(r"(?<![\w/.])cypher/[\w/.-]+?\.cypher\b")
# A backticked path into the repository (a file or a folder).
REPO_PATH = re.compile(r"`((?:kg_context|cypher|tests|benchmarks|browser|docs)/[\w/.-]*)`")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_docs_are_found() -> None:
    assert README.exists()
    names = {p.name for p in DOCS}
    assert {"architecture.md", "graph-model.md", "index.md"} <= names
    assert set(GUIDES) <= set(DOCS)
    assert sorted(RUN_ORDER) == sorted(MARKDOWN), "every page runs its examples, once"


def test_the_readme_is_short_and_links_the_site() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    for page in (*GUIDES, REPO / "docs" / "concepts.md", REPO / "docs" / "configuration.md"):
        assert f"](docs/{page.name}" in text, f"README does not link {page.name}"


def test_every_page_is_in_the_sites_nav() -> None:
    nav = re.findall(r":\s*([\w-]+\.md)\s*$", (REPO / "mkdocs.yml").read_text(), flags=re.M)
    assert sorted(nav) == sorted(p.name for p in DOCS)


@pytest.mark.parametrize("path", MARKDOWN, ids=_IDS)
def test_every_named_cypher_file_exists(path: Path) -> None:
    named = set(CYPHER_PATH.findall(path.read_text(encoding="utf-8")))
    missing = sorted(n for n in named if not (REPO / n).is_file())
    assert not missing, f"{path.name} names Cypher files that do not exist: {missing}"


def test_the_guides_name_cypher_files() -> None:
    """The check above must have something to check: the analyst's guide names every audit."""
    named = set(CYPHER_PATH.findall(ANALYSTS.read_text(encoding="utf-8")))
    audits = {f"cypher/audits/{p.name}" for p in (REPO / "cypher" / "audits").glob("*.cypher")}
    assert "cypher/audits/ledger.cypher" in named
    missing = sorted(audits - named)
    assert not missing, f"the analyst's guide does not name {missing}"
    orchestrators = (REPO / "docs" / "orchestrators.md").read_text(encoding="utf-8")
    assert "cypher/invalidation/children.cypher" in set(CYPHER_PATH.findall(orchestrators))


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
        r"^\| `([A-Z_]+)` \| (\w+) \|", section(GETTING_STARTED, "### Reason codes"), flags=re.M
    )
    table = dict(rows)
    assert len(table) == len(rows), "a reason code is listed twice"
    return table


@pytest.mark.parametrize("outcome", [Outcome.REJECT, Outcome.HALT])
def test_getting_started_lists_exactly_the_reason_codes_by_outcome(outcome: Outcome) -> None:
    listed = {code for code, said in _reason_code_table().items() if said == outcome.value}
    assert listed == {c.value for c in ReasonCode if c.outcome is outcome}


def test_the_reason_code_table_has_no_other_outcome() -> None:
    assert set(_reason_code_table().values()) == {Outcome.REJECT.value, Outcome.HALT.value}


def test_the_layout_and_the_architecture_name_every_room() -> None:
    package = REPO / "kg_context"
    rooms = sorted(f"kg_context/{p.parent.name}/" for p in package.glob("*/__init__.py"))
    layout = section(ARCHITECTURE, "## Layout")
    architecture = ARCHITECTURE.read_text(encoding="utf-8")
    for room in rooms:
        assert f"`{room}`" in layout, f"the Layout does not name {room}"
        assert f"  {room.removeprefix('kg_context/')}" in architecture, room
    for module in sorted(package.glob("*.py")):
        if module.name != "__init__.py":
            assert f"`kg_context/{module.name}`" in layout, module.name
            assert f"  {module.name}" in architecture, module.name


def _layout_bullets() -> dict[str, str]:
    """The Layout's bullets by the room they start with (``kg_context/gate/`` -> text)."""
    bullets = re.split(r"^- ", section(ARCHITECTURE, "## Layout"), flags=re.M)
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
        modules = sorted(p.name for p in (REPO / room).rglob("*.py") if not p.name.startswith("__"))
        missing = [m for m in modules if f"`{m}`" not in text]
        assert not missing, f"the Layout lists {room} without {missing}"
