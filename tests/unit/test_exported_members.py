"""The package root's public surface: ``kg_context.__all__`` pinned, every name in it importable,
nothing public defined in ``kg_context/__init__.py`` left out of it, the version read from the
installed distribution, and docs/api.md's table of where the rest lives true."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import inspect
import re
import tomllib
from pathlib import Path

import kg_context
from tests.docs_blocks import REPO

EXPORTED = [
    "AuthorizationError",
    "Boundary",
    "BoundaryHandle",
    "ConfigurationError",
    "Constitution",
    "Context",
    "DatabaseError",
    "DatabaseUnavailableError",
    "Decision",
    "Engine",
    "EngineSettings",
    "InputValidationError",
    "KgContextError",
    "LoopResult",
    "ModelOutputError",
    "Proposal",
    "ProposalDraft",
    "RefusalError",
    "SelectionBroadcastCycle",
    "StateError",
    "Window",
    "WorkspaceAttention",
    "__version__",
    "commit_model_output",
    "load_constitution",
    "parse_constitution",
    "parse_model_output",
    "proposal_schema",
    "run_agent_loop",
]
# Dunder names the root exports beside its public ones (package metadata).
METADATA = {"__version__"}
INIT = Path(kg_context.__file__)
TABLE_ROW = re.compile(r"^\| `(kg_context[\w.]*)` \| (.*) \|$")


def test_the_root_exports_exactly_the_pinned_names_in_order() -> None:
    assert kg_context.__all__ == EXPORTED
    assert sorted(EXPORTED) == EXPORTED
    assert len(set(EXPORTED)) == len(EXPORTED)


def test_every_exported_name_is_importable_and_public() -> None:
    for name in kg_context.__all__:
        assert not name.startswith("_") or name in METADATA, name
        assert hasattr(kg_context, name), name
    star: dict[str, object] = {}
    exec("from kg_context import *", star)
    assert set(star) - {"__builtins__"} == set(EXPORTED)


def _bound_in_init() -> set[str]:
    """Every name ``kg_context/__init__.py`` binds at module level."""
    names: set[str] = set()
    for node in ast.parse(INIT.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def test_every_public_name_defined_in_the_root_is_exported() -> None:
    public = {n for n in _bound_in_init() if not n.startswith("_") or n in METADATA}
    public.discard("__all__")
    assert public == set(EXPORTED)
    # What the package object holds: submodules become attributes as they are imported; any
    # other public attribute is one of the exported names.
    held = {
        n for n, v in vars(kg_context).items() if not n.startswith("_") and not inspect.ismodule(v)
    }
    assert held <= set(EXPORTED), sorted(held - set(EXPORTED))


def test_the_version_is_the_installed_distributions() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "kg-context"
    assert kg_context.__version__ == importlib.metadata.version("kg-context")
    assert kg_context.__version__ == project["version"]


def test_the_api_page_says_where_every_other_public_name_lives() -> None:
    rows = [
        m
        for line in (REPO / "docs" / "api.md").read_text(encoding="utf-8").splitlines()
        if (m := TABLE_ROW.match(line))
    ]
    assert len(rows) >= 20
    for row in rows:
        module = importlib.import_module(row.group(1))
        names = re.findall(r"`([A-Za-z_]\w*)`", row.group(2))
        assert names, row.group(0)
        for name in names:
            assert name in module.__all__, f"{row.group(1)} does not export {name}"
