"""The retention constitution: a versioned TOML file validated by pydantic (pure data).

The rules are parameters of a fixed predicate library (``kg_context.gate.pure.predicates``);
nothing here can name a model, a similarity or a classifier. A constitution's identity is its
version plus the SHA-256 of its text; every receipt records the version it ran under.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kg_context.errors import ConfigurationError, field_path
from kg_context.vocabulary import (
    DECLARED_CLASS_MAX_CHARS,
    DECLARED_CLASS_PATTERN,
    PRE_AUTHORIZED_CZAR_CASES,
    EntryClass,
    EntryStatus,
    JustificationCase,
    OnHardFanout,
    OnRecallCopyDependency,
    OnRetiredDependency,
    OnRetiredSupersession,
    OnRevision,
    Verse,
    WriterKind,
)

__all__ = [
    "Constitution",
    "DeclaredClass",
    "default_constitution_text",
    "load_constitution",
    "parse_constitution",
]

EdgeKind = Literal["derived_from", "requires"]
_BUILTIN_CLASSES = frozenset(c.value for c in EntryClass)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Roots(_Section):
    """``classes``: entries of these classes are residency roots while standing. ``leased``:
    entries of these classes are roots while inside their own lease (``expires_after``); an entry
    of any other class that declares a lease is held by reachability alone (its lease still ends
    it), so a writer cannot keep an entry in the window by declaring that it holds itself.
    ``fresh_sets``: the grace of such an entry: its own lease makes it a root for at most this
    many of the boundary's work sets after its commit (the smaller of the two), fixed at commit,
    so a new measurement nothing requires yet is readable until its users catch up, and no
    declaration or renewal keeps it longer. Absent: 0, no grace (what version 8 decided).
    ``successors``: a REQUIRES edge that holds (hard, or soft inside its lease) into an entry that
    was superseded or invalidated holds the standing entries that superseded it, as it would hold
    its target, decided from the graph (the edge, the target's status, the SUPERSEDES chain) at
    every residency pass: a dependent keeps the current version of what it rests on for as long
    as it holds the version it cited, and no longer. Absent: false (what version 11 decided)."""

    classes: tuple[EntryClass, ...]
    leased: tuple[EntryClass, ...] = (
        EntryClass.REJECTED_ALTERNATIVE,
        EntryClass.OPEN_QUESTION,
        EntryClass.SCRATCH,
    )
    fresh_sets: int = Field(default=0, ge=0)
    successors: bool = False


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


class HardFanoutRule(_Section):
    """A new entry's hard ``REQUIRES`` on entries outside its own set (defensive residency: each
    one pins its target while both stand, never expiring): ``per_entry`` is each entry's budget,
    ``per_set`` the budget of the set's new entries together (so splitting the edges across
    several entries of one set buys nothing); ``over_budget`` which edges an entry or set over its
    budget gives up: ``beyond`` the edges past the budget, in declared order, or ``all`` every
    one of them (an over-budget declaration names no edge that is essential, and its order is the
    writer's); ``excess`` (``OnHardFanout``) what those edges do: committed under ``policy``
    (``soft``, or ``reconstructible``: held only while the record cannot give the target back)
    with a lease of ``lease_sets`` work sets (the receipts name the rule), or the set halts
    ``DENSITY``. Absent (``per_entry`` and ``per_set`` unset): no budget, every hard edge commits
    as declared (what constitutions before version 13 decided); ``per_set`` and ``over_budget``
    absent: no set budget, ``beyond`` (what version 13 decided)."""

    per_entry: int | None = Field(default=None, ge=0)
    per_set: int | None = Field(default=None, ge=0)
    over_budget: Literal["beyond", "all"] = "beyond"
    excess: OnHardFanout = OnHardFanout.SOFTEN
    policy: Literal["soft", "reconstructible"] = "soft"
    lease_sets: int = Field(default=20, ge=1, le=1_000_000)


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
    """The governed history index: every ratified set gets one index line,
    written with it; the last ``resident_last`` lines are resident in the window (counted in its
    tokens), older ones leave it and stay findable in the record (``kg-context history index``)."""

    resident_last: int = Field(default=16, ge=0, le=1024)


class DeclaredClass(_Section):
    """A class the constitution adds to the built-in ones (``[classes.<name>]``:
    ontologies that grow). ``root``: its live entries are residency roots. ``lease_sets``: its
    entries carry a lease (``expires_after``) of at most this many sets, or are superseded by
    default (``MISSING_LEASE`` otherwise); unset, they hold by reachability like any entry.
    ``writers``: the writer kinds that may commit it (``CLASS_NOT_ALLOWED`` for any other)."""

    description: str = Field(default="", max_length=500)
    root: bool = False
    lease_sets: int | None = Field(default=None, ge=1, le=1_000_000)
    writers: tuple[WriterKind, ...] = Field(min_length=1)


def _declared_classes(value: dict[str, DeclaredClass]) -> dict[str, DeclaredClass]:
    """A declared name is lowercase ``a_b`` words, at most 40 characters, and never a built-in
    class (``interface``, the czar's, included): a declaration adds, it never redefines."""
    for name in value:
        if name in _BUILTIN_CLASSES:
            raise ValueError(f"{name!r} is a built-in class; a declared class cannot redefine it")
        if len(name) > DECLARED_CLASS_MAX_CHARS or not re.fullmatch(DECLARED_CLASS_PATTERN, name):
            raise ValueError(
                f"class name {name!r} is not lowercase words joined by '_' "
                f"(at most {DECLARED_CLASS_MAX_CHARS} characters)"
            )
    return value


class DependencyRule(_Section):
    """What a ``REQUIRES`` or essential ``DERIVED_FROM`` on a retired entry of the own boundary
    does (``retired``, ``OnRetiredDependency``): rehydrate it in the same set, or halt. Absent:
    halt. What a ``REQUIRES`` on a recall copy does (``recall_copy``,
    ``OnRecallCopyDependency``): the copy's source, back resident in the same set, or the copy.
    Absent: the copy (what constitutions before version 9 decided)."""

    retired: OnRetiredDependency = OnRetiredDependency.HALT
    recall_copy: OnRecallCopyDependency = OnRecallCopyDependency.COPY


class SupersessionRule(_Section):
    """What a declared supersession of a retired entry (retired from live, on the new entry's
    key or one of its key family) does (``OnRetiredSupersession``): recorded without being
    executed, or halt. Absent: halt."""

    retired: OnRetiredSupersession = OnRetiredSupersession.HALT


def _key_families(value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """A family is named like a declared class and lists at least one pattern: an exact key, or
    a prefix ending in one ``*`` (``"release/*"``). A lone ``*`` (every key one family) is none."""
    for name, patterns in value.items():
        if len(name) > DECLARED_CLASS_MAX_CHARS or not re.fullmatch(DECLARED_CLASS_PATTERN, name):
            raise ValueError(
                f"key family name {name!r} is not lowercase words joined by '_' "
                f"(at most {DECLARED_CLASS_MAX_CHARS} characters)"
            )
        if not patterns:
            raise ValueError(f"key family {name!r} lists no key")
        for pattern in patterns:
            if not pattern.strip("*") or "*" in pattern[:-1]:
                raise ValueError(
                    f"key family {name!r}: {pattern!r} is neither a key nor a prefix ending in "
                    "one '*'"
                )
    return value


def key_matches(pattern: str, key: str) -> bool:
    """Whether ``key`` is the key ``pattern`` names, or starts with its prefix (``"p/*"``)."""
    return key.startswith(pattern[:-1]) if pattern.endswith("*") else key == pattern


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
    hard_fanout: HardFanoutRule = HardFanoutRule()
    window: WindowRule = WindowRule()
    verse: VerseRule = VerseRule()
    horizon: HorizonRule = HorizonRule()
    history_index: HistoryIndexRule = HistoryIndexRule()
    limits: Limits = Limits()
    classes: dict[str, DeclaredClass] = Field(default_factory=dict, max_length=64)
    # What an undeclared revision does, per class (``OnRevision``); a class not named stands.
    on_revision: dict[str, OnRevision] = Field(default_factory=dict, max_length=128)
    # What a dependency on a retired entry does.
    on_dependency: DependencyRule = DependencyRule()
    # What a declared supersession of a retired entry does.
    on_supersession: SupersessionRule = SupersessionRule()
    # Families of keys a supersession may cross (name -> keys or ``prefix*`` patterns).
    key_families: dict[str, tuple[str, ...]] = Field(default_factory=dict, max_length=64)
    # The exact text it was parsed from, and its digest (set by parse_constitution).
    text: str = Field(default="", exclude=True)
    sha256: str = Field(default="", exclude=True)

    @model_validator(mode="after")
    def _operator_may_amend(self) -> Constitution:
        if not self.roots.classes:
            raise ValueError("roots.classes must name at least one root class")
        _declared_classes(self.classes)
        _key_families(self.key_families)
        unknown = sorted(n for n in self.on_revision if not self.knows_class(n))
        if unknown:
            raise ValueError(
                f"on_revision names {unknown}, neither built in nor declared by [classes.<name>]"
            )
        return self

    # -- classes: the built-in ones and those declared by [classes.<name>] -----------------------

    def knows_class(self, name: str) -> bool:
        return name in self.classes or name in _BUILTIN_CLASSES

    def may_write(self, kind: WriterKind, name: str) -> bool:
        """Whether writers of ``kind`` may commit entries of class ``name``."""
        declared = self.classes.get(name)
        if declared is not None:
            return kind in declared.writers
        return name in self.writers.allowed(kind)

    def revision_rule(self, name: str) -> OnRevision:
        """What an undeclared revision of class ``name`` does (``[on_revision]``; unnamed:
        stand)."""
        return self.on_revision.get(name, OnRevision.STAND)

    def key_family(self, a: str, b: str) -> str | None:
        """The first declared key family (by name) that holds both keys ``a`` and ``b``."""
        for name in sorted(self.key_families):
            patterns = self.key_families[name]
            if any(key_matches(p, a) for p in patterns) and any(
                key_matches(p, b) for p in patterns
            ):
                return name
        return None

    def leased_root_class_names(self) -> list[str]:
        """The classes whose entries are roots while inside their own lease: ``[roots] leased``
        plus every declared class with ``lease_sets``."""
        declared = [n for n, d in sorted(self.classes.items()) if d.lease_sets is not None]
        return [c.value for c in self.roots.leased] + declared

    def root_class_names(self) -> list[str]:
        """The residency root classes: ``[roots] classes`` plus every declared ``root = true``."""
        declared = [n for n, d in sorted(self.classes.items()) if d.root]
        return [c.value for c in self.roots.classes] + declared


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
