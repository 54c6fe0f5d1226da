"""The layering contract of ``kg_context``, checked over the import graph (pure, no imports run).

Every module of the package is parsed with ``ast``; its imports of ``kg_context`` modules are the
edges of the graph. An edge points at the module named (``from kg_context.db import executor``
points at ``kg_context.db.executor``; ``from kg_context.gate.pure.contracts import Proposal`` at
``kg_context.gate.pure.contracts``), never at the parent packages Python also initialises on
the way.

The contract (``LAYERS`` names the rooms, ``MAY_IMPORT`` what each room may import besides its own
modules; docs/architecture.md says the same in words)::

    base       errors, settings, surfaces,      nothing
               vocabulary
    text       embeddings, tokens               base
    db         executor, catalog, connection,   base, text
               local_server, schema
    gate.pure  the gate's decision code         base, text (and db.text_index: a pure hash)
    gate.io    the gate's transactions          base, text, db, gate.pure
    residency  reachability, czar, window, ...  base, text, db, gate      (+ one edge, below)
    record     history, search, invalidation,   base, text, db, gate
               observability, ontology
    engine     the composition root             base, text, db, gate, residency, record
    attention  workspace attention              base, text, db, gate.pure.sink, gate.pure.contracts
    cycle      the selection-broadcast cycle    base, text, db, gate.pure.sink, gate.pure.contracts
    loop       the reference agent loop         base, gate (a boundary is a protocol to it)
    api        the HTTP API (FastAPI)           base, gate, residency, record, engine,
                                                attention (never db: no Cypher, no executor)
    cli        the command line and the demo    everything above except the package root
    package    kg_context/__init__.py           everything (it re-exports the public names)

so imports run one way: base <- text <- db <- gate <- residency, record <- engine <- api, cli
<- package (the cli imports the api to serve it); attention and cycle reach the gate only
through its sink protocol and its contracts;
nothing below the engine imports ``kg_context.engine`` (not even for type checking).

Residency and record are peers: neither imports the other, except for the edges in
``CROSS_EDGES``, each with the reason it exists. Today these are three edges: recall
(``residency.recall``) searches the record through ``record.search`` before it proposes scratch
copies back into the window, ``residency.context_read`` lists the record's candidates for a
query beside the window, and ``residency.metrics`` reports the record's error rates
(``record.observability``) in ``stats``. The record never imports residency.

Which imports count:
- for the layer rule, every import: module level, inside functions, and under
  ``if TYPE_CHECKING:`` (a type-only import is still a dependency of the reader);
- for the cycle rule, only imports that run when the module is imported: module level (including
  class bodies and ``try``/``if`` blocks), not inside functions, not under ``TYPE_CHECKING``.

Size rule: no function (or method) in ``kg_context/gate/`` over ``MAX_GATE_FUNCTION_LINES``
lines, counted from its ``def`` line to its last line. Modules have no line cap: a module holds
one concept and is named for it, however long that makes it. The code that breaks a rule today
is listed in the ``PENDING_*`` allowlists below and marked ``xfail(strict=True)``: once the
code is fixed the case passes, the strict xfail fails, and the entry must be removed. An entry
naming code that no longer exists fails ``test_allowlists_name_existing_code``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "kg_context"
PACKAGE = "kg_context"

# -- the contract ---------------------------------------------------------------------------------
# A room is one or more module prefixes ("kg_context.gate" holds kg_context.gate and everything
# under it). "package" is kg_context/__init__.py alone.
LAYERS: dict[str, tuple[str, ...]] = {
    "base": (
        "kg_context.errors",
        "kg_context.settings",
        "kg_context.surfaces",
        "kg_context.vocabulary",
    ),
    "text": ("kg_context.text",),
    "db": ("kg_context.db",),
    "gate": ("kg_context.gate",),  # the package alone: its docstring
    "gate_pure": ("kg_context.gate.pure",),
    "gate_io": ("kg_context.gate.io",),
    "residency": ("kg_context.residency",),
    "record": ("kg_context.record",),
    "engine": ("kg_context.engine",),
    "attention": ("kg_context.attention",),
    "cycle": ("kg_context.cycle",),
    "loop": ("kg_context.loop",),
    "api": ("kg_context.api",),
    "cli": ("kg_context.cli",),
    "package": ("kg_context",),
}

# What each room may import besides its own modules: room names, or single modules (dotted).
# fmt: off
GATE = ("gate", "gate_pure", "gate_io")
_SIDE_ROOM = ("base", "text", "db", "kg_context.gate.pure.sink", "kg_context.gate.pure.contracts")
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "base":      (),
    "text":      ("base",),
    "db":        ("base", "text"),
    "gate":      (),
    # the decision code: no database (text_index is the boundary token, a pure function)
    "gate_pure": ("base", "text", "kg_context.db.text_index"),
    "gate_io":   ("base", "text", "db", "gate_pure"),
    "residency": ("base", "text", "db", *GATE),
    "record":    ("base", "text", "db", *GATE),
    "engine":    ("base", "text", "db", *GATE, "residency", "record"),
    "attention": _SIDE_ROOM,
    "cycle":     _SIDE_ROOM,
    "loop":      ("base", *GATE),
    "api":       ("base", *GATE, "residency", "record", "engine", "attention"),
    "cli":       ("base", "text", "db", *GATE, "residency", "record", "engine", "attention",
                  "cycle", "api"),
    "package":   tuple(room for room in LAYERS if room != "package"),
}
# fmt: on

# The only edges between the peer rooms residency and record, and why each exists.
CROSS_EDGES: dict[tuple[str, str], str] = {
    ("kg_context.residency.recall", "kg_context.record.search"): (
        "recall searches the record (fulltext + vector) before it proposes scratch copies"
    ),
    ("kg_context.residency.context_read", "kg_context.record.search"): (
        "the context lists the record's candidates for a query (read-only: nothing embedded)"
    ),
    ("kg_context.residency.metrics", "kg_context.record.observability"): (
        "stats reports the record's error rates beside the window's retention ratio"
    ),
}

MAX_GATE_FUNCTION_LINES = 80

# -- what breaks a rule today (remove an entry when its code is fixed) ----------------------------
PENDING_LAYER_FIXES: dict[str, str] = {}
PENDING_LAYER_REASON = "operations take a Boundary, so nothing below the engine needs it"

PENDING_FUNCTION_SPLITS: frozenset[str] = frozenset()
PENDING_SPLIT_REASON = "being split"


# -- the import graph -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Import:
    target: str  # the kg_context module imported
    line: int
    where: str  # "module", "function" or "TYPE_CHECKING"

    @property
    def runtime(self) -> bool:
        """Whether it runs when the importing module is imported."""
        return self.where == "module"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def _is_package(module: str) -> bool:
    return _modules()[module].name == "__init__.py"


def _resolve(name: str) -> str:
    """The longest known module a dotted name starts with."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in _modules():
            return candidate
    raise AssertionError(f"{name} names no module of {PACKAGE}")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
        return [_resolve(n) for n in names if n == PACKAGE or n.startswith(PACKAGE + ".")]
    base = node.module or ""
    if node.level:  # relative: resolved against the importing module's package
        anchor = module if _is_package(module) else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            anchor = anchor.rpartition(".")[0]
        base = f"{anchor}.{base}" if base else anchor
    if base != PACKAGE and not base.startswith(PACKAGE + "."):
        return []
    found = []
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        found.append(submodule if submodule in _modules() else _resolve(base))
    return found


def _walk(node: ast.AST, module: str, where: str) -> Iterator[Import]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            for target in _targets(child, module):
                yield Import(target, child.lineno, where)
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, module, "function" if where == "module" else where)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield from _walk_stmt(stmt, module, "TYPE_CHECKING")
            for stmt in child.orelse:
                yield from _walk_stmt(stmt, module, where)
        else:
            yield from _walk(child, module, where)


def _walk_stmt(stmt: ast.stmt, module: str, where: str) -> Iterator[Import]:
    wrapper = ast.Module(body=[stmt], type_ignores=[])
    yield from _walk(wrapper, module, where)


@cache
def _tree(module: str) -> ast.Module:
    path = _modules()[module]
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@cache
def _imports(module: str) -> tuple[Import, ...]:
    return tuple(i for i in _walk(_tree(module), module, "module") if i.target != module)


def _room(module: str) -> str:
    best, best_len = None, -1
    for room, prefixes in LAYERS.items():
        for prefix in prefixes:
            exact_only = room == "package"
            matches = module == prefix or (not exact_only and module.startswith(prefix + "."))
            if matches and len(prefix) > best_len:
                best, best_len = room, len(prefix)
    if best is None:
        raise AssertionError(f"{module} belongs to no room of LAYERS: add it to the contract")
    return best


def _allowed(importer: str, target: str) -> bool:
    room, target_room = _room(importer), _room(target)
    if room == target_room or (importer, target) in CROSS_EDGES:
        return True
    return any(
        target == allowed if "." in allowed else target_room == allowed
        for allowed in MAY_IMPORT[room]
    )


def _layer_violations(module: str) -> list[str]:
    problems = []
    for imp in _imports(module):
        if _allowed(module, imp.target):
            continue
        rule = (
            "nothing below the engine imports kg_context.engine"
            if imp.target == "kg_context.engine"
            else f"{_room(module)} may import only {', '.join(MAY_IMPORT[_room(module)]) or '-'}"
        )
        where = "" if imp.runtime else f" ({imp.where})"
        problems.append(f"line {imp.line}: imports {imp.target}{where}; {rule}")
    return problems


def _marked(names: list[str], pending: frozenset[str] | set[str], reason: str) -> list[object]:
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason))
        if name in pending
        else name
        for name in names
    ]


def _gate_functions() -> dict[str, int]:
    """Every function and method under kg_context/gate/: qualified name -> its lines."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}"
                assert child.end_lineno is not None
                found[name] = child.end_lineno - child.lineno + 1
                visit(child, name)
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}.{child.name}")

    for module in _modules():
        if module.startswith("kg_context.gate."):
            visit(_tree(module), module)
    return found


# -- the checks -----------------------------------------------------------------------------------
def test_the_package_is_found_and_every_module_is_in_a_room() -> None:
    assert len(_modules()) > 50, "the walk found too few modules: is PACKAGE_DIR right?"
    assert {_room(m) for m in _modules()} == set(LAYERS)
    assert set(MAY_IMPORT) == set(LAYERS)
    for room, allowed in MAY_IMPORT.items():
        for item in allowed:
            assert (item in _modules()) if "." in item else (item in LAYERS), (room, item)


def test_the_checker_sees_function_level_and_type_checking_imports() -> None:
    """The walk must see what the rules are about, or the layer test could not fail."""
    engine = _imports("kg_context.engine")
    assert any(i.target == "kg_context.gate.io.boundary" and i.runtime for i in engine)
    interfaces = _imports("kg_context.residency.interfaces")
    assert any(
        i.target == "kg_context.residency.czar_plan" and i.where == "TYPE_CHECKING"
        for i in interfaces
    )
    app = _imports("kg_context.cli.app")
    assert any(i.target == "kg_context.cli.history" and i.runtime for i in app)
    assert any(i.target == "kg_context.cli.demo" and i.where == "function" for i in app)
    assert not _allowed("kg_context.gate.pure.decision", "kg_context.engine")
    assert not _allowed("kg_context.attention.workspace", "kg_context.gate.io.boundary")
    assert _allowed("kg_context.attention.workspace", "kg_context.gate.pure.sink")


@pytest.mark.parametrize(
    "module", _marked(sorted(_modules()), set(PENDING_LAYER_FIXES), PENDING_LAYER_REASON)
)
def test_imports_follow_the_layer_contract(module: str) -> None:
    problems = _layer_violations(module)
    assert not problems, f"{module} ({_room(module)}):\n  " + "\n  ".join(problems)


def test_residency_and_record_cross_only_by_the_listed_edges() -> None:
    crossing = {
        (module, imp.target)
        for module in _modules()
        for imp in _imports(module)
        if {_room(module), _room(imp.target)} == {"residency", "record"}
    }
    assert crossing == set(CROSS_EDGES)


def test_no_import_cycles_at_module_level() -> None:
    graph = {m: sorted({i.target for i in _imports(m) if i.runtime}) for m in _modules()}
    # Tarjan's strongly connected components: any component of two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            connect(node)
    assert not cycles, f"import cycles at module level: {cycles}"


@pytest.mark.parametrize(
    "function", _marked(sorted(_gate_functions()), PENDING_FUNCTION_SPLITS, PENDING_SPLIT_REASON)
)
def test_no_gate_function_over_the_line_limit(function: str) -> None:
    lines = _gate_functions()[function]
    assert lines <= MAX_GATE_FUNCTION_LINES, (
        f"{function} has {lines} lines (limit {MAX_GATE_FUNCTION_LINES})"
    )


def test_the_api_never_reaches_the_executor() -> None:
    """The HTTP layer stays thin: no Cypher, no executor; it calls the engine's methods."""
    for module in _modules():
        if _room(module) != "api":
            continue
        for node in ast.walk(_tree(module)):
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"executor", "_executor"}, (module, node.lineno)


def test_allowlists_name_existing_code() -> None:
    """A stale entry (its module or function renamed or removed) must be removed too."""
    modules, functions = set(_modules()), set(_gate_functions())
    assert set(PENDING_LAYER_FIXES) <= modules
    assert functions >= PENDING_FUNCTION_SPLITS
    assert all(a in modules and b in modules for a, b in CROSS_EDGES)
