"""What the wheel holds, read from its build configuration (pyproject.toml, hatchling): the
product package and its Cypher catalog, never the benchmarks package nor their statements
(cypher/bench/), and no product module that needs either."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _wheel() -> dict[str, Any]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel: dict[str, Any] = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    return wheel


def _shipped(relative: str, wheel: dict[str, Any]) -> str | None:
    """Where a repository file lands in the wheel (hatchling's only-include, exclude and
    sources), or ``None`` when it is left out."""
    roots = wheel["only-include"]
    if not any(relative == r or relative.startswith(r + "/") for r in roots):
        return None
    if any(relative == e or relative.startswith(e.rstrip("/") + "/") for e in wheel["exclude"]):
        return None
    for source, target in wheel.get("sources", {}).items():
        if relative.startswith(source + "/"):
            return target + relative[len(source) :]
    return relative


def test_the_wheel_ships_the_product_and_its_catalog_without_the_benchmarks() -> None:
    wheel = _wheel()
    # force-include would bypass every exclude rule: the catalog goes through sources instead
    assert "packages" not in wheel and "force-include" not in wheel
    files = [
        p.relative_to(ROOT).as_posix()
        for folder in ("kg_context", "cypher", "benchmarks")
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ]
    shipped = {f: _shipped(f, wheel) for f in files}
    assert [f for f, to in shipped.items() if f.startswith("benchmarks/") and to] == []
    assert [f for f, to in shipped.items() if f.startswith("cypher/bench/") and to] == []
    catalog = [f for f in files if f.startswith("cypher/") and not f.startswith("cypher/bench/")]
    assert len(catalog) > 150
    assert all(shipped[f] == "kg_context/" + f for f in catalog)
    assert all(shipped[f] == f for f in files if f.startswith("kg_context/"))


def test_no_product_module_needs_what_the_wheel_leaves_out() -> None:
    bench_statement = re.compile(r"""\b(read|write)\w*\(\s*["']bench/""")
    offenders = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "kg_context").rglob("*.py")
        if bench_statement.search(path.read_text(encoding="utf-8"))
        or re.search(r"^\s*(from|import) benchmarks\b", path.read_text(encoding="utf-8"), re.M)
    ]
    assert offenders == []
