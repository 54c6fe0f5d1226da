"""Reading the repository's Markdown for tests: fenced code blocks and the commands in them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCS = sorted((REPO / "docs").glob("*.md"))
# The order the examples run in, sharing one boundary: the README, then the docs site's pages as
# a reader meets them (each builds on what the pages before it wrote), then every other page.
GUIDES = [
    REPO / "docs" / name
    for name in (
        "getting-started.md",
        "operators.md",
        "orchestrators.md",
        "http.md",
        "mcp.md",
        "cli.md",
        "analysts.md",
        "benchmarks.md",
    )
]
RUN_ORDER = [README, *GUIDES, *(p for p in DOCS if p not in GUIDES)]

# A bash command the README suite runs: it calls the CLI, installed or from the project's venv.
CLI = re.compile(r"^(?:\.venv/bin/)?kg-context(?:\s|$)")
# Commands shown but not run, and why: they start, stop or inspect the local server that the test
# suite itself runs against, or run make (which installs and runs the whole suite).
NOT_RUN = {
    re.compile(r"^(?:\.venv/bin/)?kg-context\s+neo4j\s+(?:start|stop|status)\b"): (
        "server lifecycle: the suite runs against the server"
    ),
    re.compile(r"^make(?:\s|$)"): "make installs and runs the suite itself",
    re.compile(r"^(?:\.venv/bin/)?kg-context\s+serve\b"): (
        "serves until interrupted; tests/integration/test_api.py runs the server"
    ),
}

# Python blocks shown but not run, by page and a line they contain, and why.
FRAGMENTS = {
    ("docs/ledger.md", "digest = chain_digest(boundary_id, pos, prev"): (
        "the formula's names (set_props, receipts, ...) are a record read from the graph"
    ),
}


@dataclass(frozen=True, slots=True)
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced (```) block of a Markdown file, in order."""
    found: list[Block] = []
    lang: str | None = None
    start = 0
    body: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```"):
            if lang is None:
                lang, start, body = line[3:].strip().split(" ")[0], number, []
            else:
                found.append(Block(path, start, lang, "\n".join(body) + "\n"))
                lang = None
        elif lang is not None:
            body.append(line)
    assert lang is None, f"{path}:{start}: unclosed code block"
    return found


def commands(block: Block) -> list[str]:
    """The commands of a bash block: continuation lines joined, blank and comment lines dropped."""
    joined = block.text.replace("\\\n", " ")
    return [
        line.strip()
        for line in joined.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


def fragment_because(block: Block) -> str | None:
    """Why a python block is shown but not run (``FRAGMENTS``), or ``None``: it runs."""
    where = str(block.path.relative_to(REPO))
    for (path, line), why in FRAGMENTS.items():
        if path == where and line in block.text:
            return why
    return None


def not_run_because(command: str) -> str | None:
    for pattern, why in NOT_RUN.items():
        if pattern.match(command):
            return why
    return None


def section(path: Path, heading: str) -> str:
    """The text under a Markdown heading, up to the next heading of the same or a higher level."""
    text = path.read_text(encoding="utf-8")
    level = heading.split(" ")[0]
    match = re.search(
        rf"^{re.escape(heading)}\n(.*?)(?=^#{{1,{len(level)}}} |\Z)", text, re.M | re.S
    )
    assert match, f"{path.name} has no section {heading!r}"
    return match.group(1)


def generated_part(page: Path, start: str, end: str) -> str:
    """The part of ``page`` a generator writes: from its ``start`` marker to its ``end``."""
    match = re.search(rf"{re.escape(start)}.*?{re.escape(end)}", page.read_text("utf-8"), re.S)
    assert match, f"{page.name} has no generated part ({start!r} ... {end!r})"
    return match.group(0)


def regenerate(page: Path, start: str, end: str, made: str) -> None:
    """Write ``made`` (which begins with ``start`` and ends with ``end``) over ``page``'s
    generated part."""
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(generated_part(page, start, end), made), encoding="utf-8")
