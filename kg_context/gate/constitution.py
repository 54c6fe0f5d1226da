"""The retention constitution: a versioned TOML file validated by pydantic (pure data).

The rules are parameters of a fixed predicate library (``kg_context.gate.predicates``); nothing here
can name a model, a similarity or a classifier. A constitution's identity is its version plus the
SHA-256 of its text; every receipt records the version it ran under.
"""

from __future__ import annotations

import hashlib
import tomllib
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kg_context.errors import ConfigurationError, field_path
from kg_context.vocabulary import (
    PRE_AUTHORIZED_CZAR_CASES,
    EntryClass,
    EntryStatus,
    JustificationCase,
    Verse,
    WriterKind,
)

__all__ = ["Constitution", "default_constitution_text", "load_constitution", "parse_constitution"]

EdgeKind = Literal["derived_from", "requires"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Roots(_Section):
    classes: tuple[EntryClass, ...]


class Writers(_Section):
    agent: tuple[EntryClass, ...] = ()
    tool: tuple[EntryClass, ...] = ()
    model: tuple[EntryClass, ...] = ()
    czar: tuple[EntryClass, ...] = ()
    operator: tuple[EntryClass, ...] = ()

    def allowed(self, kind: WriterKind) -> tuple[EntryClass, ...]:
        allowed: tuple[EntryClass, ...] = getattr(self, kind.value)
        return allowed


class TransitionRule(_Section):
    """The status changes each writer kind may declare (residency-only changes: czar, operator)."""

    agent: tuple[EntryStatus, ...] = ()
    tool: tuple[EntryStatus, ...] = ()
    model: tuple[EntryStatus, ...] = ()
    czar: tuple[EntryStatus, ...] = (EntryStatus.RETIRED,)
    operator: tuple[EntryStatus, ...] = tuple(EntryStatus)

    def allowed(self, kind: WriterKind) -> tuple[EntryStatus, ...]:
        allowed: tuple[EntryStatus, ...] = getattr(self, kind.value)
        return allowed

    def may_move_residency(self, kind: WriterKind) -> bool:
        return kind in (WriterKind.CZAR, WriterKind.OPERATOR)


class AuthorityRule(_Section):
    """Who may act with authority in the boundary. Only the ids named in ``czars`` may write as
    czar, only those in ``operators`` as operator (ratify constitution changes, resolve halts,
    issue adoptions); any other id registers itself, on its first ratified set, with one of the
    ``self_register`` kinds, and keeps that kind in the boundary for good."""

    czars: tuple[str, ...] = ("czar",)
    operators: tuple[str, ...] = ("operator",)
    self_register: tuple[WriterKind, ...] = (WriterKind.AGENT, WriterKind.TOOL, WriterKind.MODEL)

    def named_kinds(self, writer_id: str) -> frozenset[WriterKind]:
        """The kinds the constitution itself grants ``writer_id`` (empty: it names it nowhere)."""
        kinds = set()
        if writer_id in self.czars:
            kinds.add(WriterKind.CZAR)
        if writer_id in self.operators:
            kinds.add(WriterKind.OPERATOR)
        return frozenset(kinds)

    @model_validator(mode="after")
    def _named_kinds_are_not_self_registered(self) -> AuthorityRule:
        named = {WriterKind.CZAR, WriterKind.OPERATOR} & set(self.self_register)
        if named:
            raise ValueError(
                f"{sorted(k.value for k in named)} are granted by naming ids, never self-registered"
            )
        return self


class CrossBoundaryRule(_Section):
    """The declared edges (``derived_from``, ``requires``) that may point at an entry of another
    boundary; each such reference also needs that boundary's adoption receipt for its key."""

    allowed: tuple[EdgeKind, ...] = ()


class CzarRule(_Section):
    """The compaction cases the constitution pre-authorizes: a czar transition whose declared
    ``case`` is one of these commits mechanically; any other (the czar marks what it cannot
    decide ``UNCLEAR``) halts to the operator."""

    pre_authorized: tuple[JustificationCase, ...] = PRE_AUTHORIZED_CZAR_CASES


class ProvenanceRule(_Section):
    required_classes: tuple[EntryClass, ...] = ()


class DeliberativeRule(_Section):
    classes: tuple[EntryClass, ...] = (EntryClass.REJECTED_ALTERNATIVE, EntryClass.OPEN_QUESTION)
    max_lease_sets: int = Field(default=1000, ge=1)


class DensityRule(_Section):
    max_set_fanout: int = Field(default=64, ge=0)
    max_edges_per_live_entry: float = Field(default=4.0, ge=0)
    ratio_floor_entries: int = Field(default=20, ge=0)


class WindowRule(_Section):
    """``proposals``: pending proposals within this many submissions of each other are grouped by
    shared targets and dependencies. ``sets``: set-level invariants are evaluated over the sets
    ratified within this many seqs (the fragment group, ``predicates`` FRAGMENTATION)."""

    proposals: int = Field(default=256, ge=1)
    sets: int = Field(default=16, ge=0)


class VerseRule(_Section):
    adoption_required_for: tuple[Verse, ...] = (Verse.GLOBAL,)


class HorizonRule(_Section):
    append_only_below: int = Field(default=0, ge=0)


class HistoryIndexRule(_Section):
    """The governed history index (seed 002 section 4): every ratified set gets one index line,
    written with it; the last ``resident_last`` lines are resident in the window (counted in its
    tokens), older ones leave it and stay findable in the record (``kg-context history index``)."""

    resident_last: int = Field(default=16, ge=0, le=1024)


class Limits(_Section):
    max_body_tokens: int = Field(default=8192, ge=1)
    max_entries_per_set: int = Field(default=1000, ge=1)


class Constitution(_Section):
    """One version of the operator's constitution."""

    version: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._-]+$")
    description: str = ""
    roots: Roots
    writers: Writers
    transitions: TransitionRule = TransitionRule()
    authority: AuthorityRule = AuthorityRule()
    cross_boundary: CrossBoundaryRule = CrossBoundaryRule()
    czar: CzarRule = CzarRule()
    provenance: ProvenanceRule = ProvenanceRule()
    deliberative: DeliberativeRule = DeliberativeRule()
    density: DensityRule = DensityRule()
    window: WindowRule = WindowRule()
    verse: VerseRule = VerseRule()
    horizon: HorizonRule = HorizonRule()
    history_index: HistoryIndexRule = HistoryIndexRule()
    limits: Limits = Limits()
    # The exact text it was parsed from, and its digest (set by parse_constitution).
    text: str = Field(default="", exclude=True)
    sha256: str = Field(default="", exclude=True)

    @model_validator(mode="after")
    def _operator_may_amend(self) -> Constitution:
        if not self.roots.classes:
            raise ValueError("roots.classes must name at least one root class")
        return self


def parse_constitution(text: str, *, source: str = "constitution") -> Constitution:
    """A validated constitution from TOML text, or a ``ConfigurationError`` naming each problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigurationError(f"{source} is not valid TOML: {err}") from None
    try:
        parsed = Constitution.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{field_path(e['loc'])}: {e['msg']}" for e in err.errors(include_url=False)
        )
        raise ConfigurationError(f"{source} is not a valid constitution: {problems}") from None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return parsed.model_copy(update={"text": text, "sha256": digest})


def default_constitution_text() -> str:
    return (resources.files("kg_context") / "resources" / "constitution.toml").read_text("utf-8")


def load_constitution(path: Path | None = None) -> Constitution:
    """The constitution in ``path``, or the default one shipped in the package."""
    if path is None:
        return parse_constitution(default_constitution_text(), source="default constitution")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigurationError(f"cannot read constitution {path}: {err.strerror}") from None
    return parse_constitution(text, source=str(path))
