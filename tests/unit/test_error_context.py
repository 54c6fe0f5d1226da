"""Errors carry what they are about as attributes (no database): the base class's context, the
subclasses that add their own, and a scan that no surface reads an exception's message text."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from kg_context import errors
from kg_context.errors import (
    CONTEXT_FIELDS,
    AuthorizationError,
    InputRefused,
    KgContextError,
    OperatorActRefused,
    QueryError,
    RefusalError,
    ReservedIdError,
    StateError,
)

PACKAGE = Path(errors.__file__).resolve().parent


def test_the_context_fields() -> None:
    assert CONTEXT_FIELDS == (
        "boundary_id",
        "reason_code",
        "halt_id",
        "set_id",
        "entry_id",
        "proposal_id",
        "writer_id",
    )


def test_an_error_without_context_has_none_of_it() -> None:
    error = StateError("no boundary b")
    assert str(error) == "no boundary b"
    for name in CONTEXT_FIELDS:
        assert getattr(error, name) is None
    assert error.context == {}


def test_context_is_the_attributes_that_apply() -> None:
    error = StateError("halt h is resolved, not open", boundary_id="b", halt_id="h", set_id="s")
    assert (error.boundary_id, error.halt_id, error.set_id) == ("b", "h", "s")
    assert error.writer_id is None and error.entry_id is None
    assert error.context == {"boundary_id": "b", "halt_id": "h", "set_id": "s"}
    assert list(error.context) == [n for n in CONTEXT_FIELDS if n in error.context]
    assert str(error) == "halt h is resolved, not open"


def test_context_is_read_only_and_a_copy() -> None:
    error = AuthorizationError("refused", boundary_id="b", writer_id="w")
    with pytest.raises(AttributeError):
        error.context = {}  # type: ignore[misc]
    error.context["boundary_id"] = "other"
    assert error.context["boundary_id"] == "b"


def test_every_error_class_takes_the_context_keywords() -> None:
    """Every class of the tree whose constructor is the base's takes every context keyword."""
    for _, cls in inspect.getmembers(errors, inspect.isclass):
        if not issubclass(cls, KgContextError) or "__init__" in vars(cls):
            continue
        if any("__init__" in vars(base) for base in cls.__mro__[1:] if base is not KgContextError):
            continue
        error = cls("m", **{name: name.upper() for name in CONTEXT_FIELDS})
        assert error.context == {name: name.upper() for name in CONTEXT_FIELDS}, cls


def test_context_keywords_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        StateError("m", "b", boundary_id="b", halt_id=None, nonsense=1)  # type: ignore[call-arg]
    assert StateError("m", "more").args == ("m", "more")


def test_reserved_id_error_keeps_its_attributes_as_the_base_s() -> None:
    error = ReservedIdError(
        "proposal p refused (RESERVED_ID)",
        reason_code="RESERVED_ID",
        proposal_id="p",
        taken_id="b/czar/1",
        writer_id="w",
        boundary_id="b",
        set_id="b/czar/1",
    )
    assert isinstance(error, AuthorizationError)
    assert (error.reason_code, error.proposal_id, error.writer_id) == ("RESERVED_ID", "p", "w")
    assert error.taken_id == "b/czar/1"
    assert error.context == {
        "boundary_id": "b",
        "reason_code": "RESERVED_ID",
        "set_id": "b/czar/1",
        "proposal_id": "p",
        "writer_id": "w",
    }
    assert "taken_id" not in error.context


def test_a_refusal_s_code_is_its_reason_code() -> None:
    error = OperatorActRefused(
        "revoking writer w refused",
        code="NOT_OPERATOR",
        fix="ask an operator",
        boundary_id="b",
        writer_id="x",
    )
    assert isinstance(error, RefusalError) and isinstance(error, AuthorizationError)
    assert error.code == error.reason_code == "NOT_OPERATOR"
    assert error.fix == "ask an operator"
    assert error.context == {"boundary_id": "b", "reason_code": "NOT_OPERATOR", "writer_id": "x"}
    assert str(error) == "revoking writer w refused [NOT_OPERATOR]; ask an operator"
    bare = InputRefused("too large", code="WAVE_TOO_LARGE", fix="split it")
    assert bare.context == {"reason_code": "WAVE_TOO_LARGE"}


def test_a_query_error_s_code_is_the_server_s_not_a_reason_code() -> None:
    error = QueryError("refused", code="Neo.ClientError.Statement.SyntaxError", query="q")
    assert error.code == "Neo.ClientError.Statement.SyntaxError" and error.query == "q"
    assert error.reason_code is None and error.context == {}


# -- no surface reads an exception's message text ------------------------------------------------

_TEXT_METHODS = {"startswith", "endswith", "find", "rfind", "index", "rindex", "count"}
_REGEX_FUNCTIONS = {"search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}


def _exception_names(tree: ast.AST) -> set[str]:
    """Names bound to an exception: ``except ... as name``, and parameters annotated with an
    error class (``error: KgContextError``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.arg) and node.annotation is not None:
            annotation = ast.unparse(node.annotation)
            if any(word in annotation for word in ("Error", "Exception", "Refused")):
                names.add(node.arg)
    return names


def _is_message(node: ast.AST, names: set[str]) -> bool:
    """An expression that is an exception's message text: ``str(e)``, ``repr(e)``, ``f"{e}"``,
    ``e.args``, ``e.args[0]``, ``e.message``."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"str", "repr"}
        and len(node.args) == 1
    ):
        arg = node.args[0]
        return isinstance(arg, ast.Name) and arg.id in names
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(v, ast.FormattedValue)
            and isinstance(v.value, ast.Name)
            and v.value.id in names
            for v in node.values
        )
    if isinstance(node, ast.Subscript):
        return _is_message(node.value, names)
    if isinstance(node, ast.Attribute) and node.attr in {"args", "message"}:
        return isinstance(node.value, ast.Name) and node.value.id in names
    return False


def message_inspections(source: str) -> list[tuple[int, str]]:
    """Where ``source`` decides something by an exception's message text: a comparison
    (``in``, ``==``) on it, a text method (``startswith``...) on it, or a regex run over it."""
    tree = ast.parse(source)
    names = _exception_names(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        hit = False
        if isinstance(node, ast.Compare):
            hit = any(_is_message(side, names) for side in (node.left, *node.comparators))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in _TEXT_METHODS and _is_message(node.func.value, names):
                hit = True
            elif node.func.attr in _REGEX_FUNCTIONS:
                hit = any(_is_message(arg, names) for arg in node.args)
        if hit:
            found.append((getattr(node, "lineno", 0), ast.unparse(node)))
    return found


@pytest.mark.parametrize(
    "source",
    [
        "try:\n    f()\nexcept E as err:\n    if 'no boundary' in str(err):\n        pass\n",
        "try:\n    f()\nexcept E as error:\n    ok = str(error).startswith('halt')\n",
        "import re\ntry:\n    f()\nexcept E as e:\n    m = re.search(r'halt (\\S+)', str(e))\n",
        "def h(error: KgContextError) -> bool:\n    return error.args[0] == 'x'\n",
        "def h(error: KgContextError) -> bool:\n    return 'x' in f'{error}'\n",
        "import re\nP = re.compile('x')\ndef h(error: StateError) -> object:\n"
        "    return P.match(str(error))\n",
    ],
)
def test_the_scan_finds_message_inspection(source: str) -> None:
    assert message_inspections(source)


@pytest.mark.parametrize(
    "source",
    [
        "try:\n    f()\nexcept E as err:\n    print(f'error: {err}')\n",
        "try:\n    f()\nexcept E as err:\n    line = str(err).splitlines()[0]\n",
        "def h(error: KgContextError) -> dict:\n    return {'message': str(error)}\n",
        "def h(error: KgContextError) -> bool:\n    return error.halt_id == 'h'\n",
    ],
)
def test_the_scan_lets_showing_a_message_pass(source: str) -> None:
    assert message_inspections(source) == []


def test_no_surface_reads_an_exception_s_message_text() -> None:
    """An error's context is its attributes: code that needs a boundary, halt or reason reads
    them (``error.halt_id``, ``error.context``), never the message."""
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, text in message_inspections(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "\n".join(found)
