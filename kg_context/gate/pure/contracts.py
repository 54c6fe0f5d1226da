"""The typed contracts writers use: proposals, entries and their declarations (pure data).

Validated with pydantic at the edge; ``parse_proposal`` turns pydantic's errors into an
``InputValidationError`` so nothing malformed reaches the gate. ``kg-context schema json`` exports
these models as JSON Schema.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cached_property
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
    model_validator,
)

from kg_context.errors import InputValidationError, field_path
from kg_context.vocabulary import (
    CLASS_LABELS,
    DECLARED_CLASS_MAX_CHARS,
    DECLARED_CLASS_PATTERN,
    DELIBERATIVE_CLASSES,
    RESIDENT_LABEL,
    STATUS_LABELS,
    EntryClass,
    EntryStatus,
    JustificationCase,
    ResidencyPolicy,
    SetKind,
    Verse,
    WriterKind,
)

__all__ = [
    "CLASS_LABELS",
    "DELIBERATIVE_CLASSES",
    "MAX_BODY_CHARS",
    "RESIDENT_LABEL",
    "STATUS_LABELS",
    "EntryClass",
    "EntryProposal",
    "EntryStatus",
    "Proposal",
    "Provenance",
    "Residency",
    "ResidencyPolicy",
    "Supersession",
    "Transition",
    "Verse",
    "WriterKind",
    "constitution_proposal",
    "parse_proposal",
]

# The hard ceiling at the edge; the constitution sets a lower limit the gate enforces.
MAX_BODY_CHARS = 262_144
_ID = r"^[A-Za-z0-9][A-Za-z0-9._:/#@+-]{0,199}$"
# What the validators below check, stated in the JSON Schema too (an ASCII identifier: the
# validators also take other Python identifiers), so an instance valid under the schema parses.
_NAME_SCHEMA: dict[str, Any] = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


class _Reference(_Strict):
    """A declaration that points at another entry: of the proposal's own boundary (bare), or of
    the boundary named by ``boundary_id`` (a cross-boundary reference, which the constitution
    must allow and that boundary's adoption receipt must cover: ``CROSS_BOUNDARY``)."""

    entry_id: str = Field(pattern=_ID)
    boundary_id: str | None = Field(default=None, pattern=_ID)

    @model_serializer(mode="wrap")
    def _bare_stays_bare(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A bare reference dumps without ``boundary_id``: the canonical payload (and digest)
        of every proposal that names no other boundary is what it was before the field."""
        data: dict[str, Any] = handler(self)
        if data.get("boundary_id") is None:
            data.pop("boundary_id", None)
        return data


class Supersession(_Reference):
    """This entry replaces ``entry_id`` (live, same boundary, same key), for ``reason``."""

    reason: str = Field(min_length=1, max_length=2000)


class Provenance(_Reference):
    """This entry was derived from ``entry_id``; essential (propagates at-risk) or supporting."""

    essential: bool = True


class Residency(_Reference):
    """This entry needs ``entry_id`` resident: hard, or soft/reconstructible with a lease."""

    policy: ResidencyPolicy = ResidencyPolicy.HARD
    lease_sets: int | None = Field(default=None, ge=1, le=1_000_000)
    needs: tuple[str, ...] = Field(
        default=(), max_length=64, json_schema_extra={"items": _NAME_SCHEMA}
    )

    @field_validator("needs")
    @classmethod
    def _property_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for name in value:
            if not name.isidentifier():
                raise ValueError(f"needs names properties; {name!r} is not a property name")
        return value


class Transition(_Strict):
    """A declared status change of an existing entry (and/or its residency), with the reason, the
    case it cites, and the exact edges or facts that justify it (recorded on the transition, for
    audits).

    ``case`` is what the gate decides by (a ``JustificationCase``: a czar's compaction case, an
    invalidation's failed ancestor, an ontology change); ``failed_ancestors`` names the failed
    entries an at-risk transition answers to (revalidation must cite one); ``justification`` is
    free-text evidence for people and audits, never parsed."""

    entry_id: str = Field(pattern=_ID)
    to: EntryStatus | None = None
    resident: bool | None = None
    reason: str = Field(min_length=1, max_length=2000)
    case: JustificationCase | None = None
    failed_ancestors: tuple[Annotated[str, Field(pattern=_ID)], ...] = Field(
        default=(), max_length=256
    )
    justification: tuple[str, ...] = Field(default=(), max_length=256)

    @model_validator(mode="after")
    def _changes_something(self) -> Transition:
        if self.to is None and self.resident is None:
            raise ValueError("a transition changes the status, the residency, or both")
        return self


class EntryProposal(_Strict):
    """One typed entry a writer proposes."""

    id: str | None = Field(default=None, pattern=_ID)
    # A built-in class (``EntryClass``) or one the boundary's constitution declares
    # (``[classes.<name>]``): the shape is checked here, whether it is known by the gate.
    entry_class: str = Field(
        alias="class",
        max_length=DECLARED_CLASS_MAX_CHARS,
        pattern=DECLARED_CLASS_PATTERN,
        description="a built-in class (the examples) or one the boundary's constitution "
        "declares ([classes.<name>])",
        examples=[c.value for c in EntryClass],
    )
    key: str = Field(min_length=1, max_length=512)
    body: str = Field(max_length=MAX_BODY_CHARS)
    verse: Verse = Verse.LOCAL
    supersedes: tuple[Supersession, ...] = Field(default=(), max_length=256)
    derived_from: tuple[Provenance, ...] = Field(default=(), max_length=1024)
    requires: tuple[Residency, ...] = Field(default=(), max_length=1024)
    expires_after: int | None = Field(default=None, ge=1, le=1_000_000)
    superseded_by_default: bool = False
    attributes: dict[str, str | int | float | bool] = Field(
        default_factory=dict, max_length=64, json_schema_extra={"propertyNames": _NAME_SCHEMA}
    )

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    def references(self) -> list[str]:
        """Every entry id of the own boundary this entry declares a relation to (supersedes,
        provenance, residency): the bare references."""
        refs: tuple[_Reference, ...] = (*self.supersedes, *self.derived_from, *self.requires)
        return [ref.entry_id for ref in refs if ref.boundary_id is None]

    def foreign_references(self) -> list[tuple[str, _Reference]]:
        """The references that name another boundary, with the edge they declare
        (``supersedes``, ``derived_from`` or ``requires``)."""
        edges: list[tuple[str, tuple[_Reference, ...]]] = [
            ("supersedes", self.supersedes),
            ("derived_from", self.derived_from),
            ("requires", self.requires),
        ]
        return [(edge, ref) for edge, refs in edges for ref in refs if ref.boundary_id is not None]

    @field_validator("entry_class", mode="before")
    @classmethod
    def _class_name(cls, value: object) -> object:
        return value.value if isinstance(value, EntryClass) else value

    @field_validator("attributes")
    @classmethod
    def _attribute_names(
        cls, value: dict[str, str | int | float | bool]
    ) -> dict[str, str | int | float | bool]:
        for name in value:
            if not name.isidentifier():
                raise ValueError(f"attribute name {name!r} is not an identifier")
        return value


class Proposal(_Strict):
    """A writer's proposal into one boundary: a set id, or declared targets, and entries."""

    id: str = Field(pattern=_ID)
    boundary_id: str = Field(pattern=_ID)
    writer_id: str = Field(pattern=_ID)
    writer_kind: WriterKind
    set_id: str | None = Field(default=None, pattern=_ID)
    targets: tuple[str, ...] = Field(
        default=(),
        max_length=256,
        json_schema_extra={"items": {"type": "string", "minLength": 1, "maxLength": 512}},
    )
    entries: tuple[EntryProposal, ...] = Field(default=(), max_length=1000)
    transitions: tuple[Transition, ...] = Field(default=(), max_length=10_000)
    summary: str | None = Field(default=None, max_length=2000)
    adoption_receipt_id: str | None = Field(default=None, pattern=_ID)
    revalidates: tuple[str, ...] = Field(default=(), max_length=256)
    # Entries of the boundary this set marks foundational: a soft/reconstructible lease into
    # one holds while the mark stands. Only a named operator may declare it (the gate checks).
    foundational: tuple[str, ...] = Field(
        default=(), max_length=256, json_schema_extra={"items": {"type": "string", "pattern": _ID}}
    )
    kind: SetKind = SetKind.STATE

    @field_validator("targets")
    @classmethod
    def _targets(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for target in value:
            if not target or len(target) > 512:
                raise ValueError("a target is a non-empty key of at most 512 characters")
        return value

    @field_validator("foundational")
    @classmethod
    def _marked_ids(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for entry_id in value:
            if not re.match(_ID, entry_id):
                raise ValueError(f"foundational names entry ids; {entry_id!r} is not one")
        return value

    @model_validator(mode="after")
    def _unique_entry_ids(self) -> Proposal:
        if not self.entries and not self.transitions and not self.foundational:
            raise ValueError(
                "a proposal carries entries, transitions or foundational marks; it has none"
            )
        ids = [entry_id for entry_id in self.entry_ids()]
        if len(set(ids)) != len(ids):
            raise ValueError("entry ids repeat within the proposal")
        moved = [t.entry_id for t in self.transitions]
        if len(set(moved)) != len(moved):
            raise ValueError("an entry is transitioned twice within the proposal")
        for entry in self.entries:
            if any(ref.boundary_id == self.boundary_id for _, ref in entry.foreign_references()):
                raise ValueError(
                    "a reference names boundary_id only for another boundary; a bare reference "
                    "is to the proposal's own boundary"
                )
        return self

    @cached_property
    def _entry_ids(self) -> tuple[str, ...]:
        return tuple(e.id or f"{self.id}#{i}" for i, e in enumerate(self.entries))

    def entry_ids(self) -> list[str]:
        """Each entry's id: the declared one, or ``<proposal id>#<index>``."""
        return list(self._entry_ids)

    @cached_property
    def _canonical(self) -> tuple[str, str]:
        text = json.dumps(
            self.model_dump(mode="json", by_alias=True), sort_keys=True, ensure_ascii=False
        )
        return text, hashlib.sha256(text.encode("utf-8")).hexdigest()

    def payload(self) -> str:
        """The proposal as canonical JSON: what the record stores verbatim."""
        return self._canonical[0]

    def digest(self) -> str:
        """SHA-256 of the canonical payload: the proposal's content identity."""
        return self._canonical[1]


def parse_proposal(data: Proposal | dict[str, Any]) -> Proposal:
    """A validated proposal, or an ``InputValidationError`` listing every problem."""
    if isinstance(data, Proposal):
        return data
    if not isinstance(data, dict):
        raise InputValidationError(f"a proposal is a mapping, not {type(data).__name__}")
    try:
        return Proposal.model_validate(data)
    except ValidationError as err:
        problems = "; ".join(
            f"{field_path(e['loc']) or '(proposal)'}: {e['msg']}"
            for e in err.errors(include_url=False)
        )
        raise InputValidationError(f"malformed proposal: {problems}") from None


def constitution_proposal(
    boundary_id: str,
    writer_id: str,
    text: str,
    reason: str,
    writer_kind: WriterKind = WriterKind.OPERATOR,
) -> Proposal:
    """A constitution change as a proposal (its one entry's body is the TOML text). The gate
    ratifies it only for an operator writer; its id is derived from writer and text (idempotent)."""
    writer_kind = WriterKind(writer_kind)
    identity = f"{writer_kind.value}\n{writer_id}\n{text}"
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    proposal_id = f"{boundary_id}/constitution/{digest}"
    return Proposal(
        id=proposal_id,
        boundary_id=boundary_id,
        writer_id=writer_id,
        writer_kind=writer_kind,
        set_id=proposal_id,
        targets=("constitution",),
        entries=(
            EntryProposal.model_validate({"class": "pin", "key": "constitution", "body": text}),
        ),
        summary=f"constitution change: {reason}"[:2000],
        kind="constitution",
    )
