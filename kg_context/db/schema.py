"""The schema: every constraint and index is one ``CREATE ... IF NOT EXISTS`` file in
``cypher/schema/``, and the database records which schema it holds.

``check_schema`` compares the database's record with the package's at connect;
``apply_schema`` creates what is missing, replaces what changed, drops only schema objects this
package replaced (never data) and writes the record; idempotent and safe to run concurrently.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from kg_context.db.catalog import Query, default_catalog
from kg_context.db.executor import QueryExecutor
from kg_context.db.text_index import BOUNDARY_TOKEN_LENGTH, boundary_token
from kg_context.errors import QueryError, SchemaError

__all__ = [
    "OBSOLETE",
    "SCHEMA_VERSION",
    "RuleKind",
    "SchemaPlan",
    "SchemaRecord",
    "SchemaRule",
    "add_essential_edges",
    "apply_schema",
    "backfill_entries",
    "check_schema",
    "drop_empty_lists",
    "ensure_schema",
    "package_rules",
    "plan_schema",
    "read_schema_record",
    "schema_digest",
    "schema_steps",
    "shorten_boundary_tokens",
]

# The package's schema version: bump it whenever a file in cypher/schema/ changes (a unit test
# holds the digest of the rules to this version, so a change without a bump fails).
SCHEMA_VERSION = 11
# What the database runs to put it right, named in every refusal.
APPLY_COMMAND = "kg-context schema apply"


class RuleKind(StrEnum):
    CONSTRAINT = "constraint"
    INDEX = "index"


# Rules this package's schema replaced, dropped when the schema is applied (after their
# replacements are online). Version 2 scoped ids to their boundary: (boundary_id, id) composite
# uniqueness replaced these global ones, and the halts of a set are found by (boundary_id,
# set_id). Version 3 adds the (boundary_id, seq) index of sets (the gate reads the fragment
# window: the sets ratified in the last seqs) and replaces nothing; version 4 (the boundary in
# the fulltext index, per-boundary key, embedding-queue and attention indexes) neither; version 5
# (the governed history index: IndexEntry id uniqueness, (boundary_id, seq) index) neither;
# version 6 (revocation receipts by subject id and by subject kind) neither; version 7 (the
# resident entries of a boundary by key, for the gate's [on_revision] read) neither. Version 8
# drops what no statement reads but every write pays for, on disk and in the transaction log:
# the shared vector index over every entry's embedding (a boundary past the exact bound is
# searched through its own index, and exactly while that fills) and the range indexes no
# statement seeks by (entries by class, key, residency or status alone, ProposalNodes by time
# or specialist alone, sets by status alone: every statement seeks by boundary first). Dropping
# an index deletes no data: the embeddings and properties stay on the nodes. Version 9 changes
# no rule: its data step adds ESSENTIALLY_DERIVED_FROM beside every essential DERIVED_FROM of a
# boundary written before it (``add_essential_edges``). Version 10 drops the vector index over
# ProposalNode embeddings, which no statement queried (attention scores each wave in memory and
# no longer stores the embedding; the embeddings stored before stay on their nodes), and its data
# step shortens every boundary token written before it to the 25 characters the gate now writes
# (``shorten_boundary_tokens``: a token short enough to sit in the node's property record
# instead of a string record of its own; the new token is the old one's prefix). Version 11
# changes no rule: the gate stores a set's ``lineage`` and ``dependencies`` and a proposal's
# ``targets`` only when not empty (an empty string list costs a 128-byte record of its own), and
# its data step removes the empty ones written before it (``drop_empty_lists``); a thought whose
# text is uncut no longer stores that text's length and SHA-256 again (thoughts written before
# keep theirs: readers take either, and no step deletes a digest).
OBSOLETE: tuple[tuple[RuleKind, str], ...] = (
    (RuleKind.CONSTRAINT, "entry_id_unique"),
    (RuleKind.CONSTRAINT, "set_id_unique"),
    (RuleKind.CONSTRAINT, "proposal_id_unique"),
    (RuleKind.CONSTRAINT, "writer_id_unique"),
    (RuleKind.CONSTRAINT, "target_key_unique"),
    (RuleKind.INDEX, "halt_set_id"),
    (RuleKind.INDEX, "entry_embedding_vector"),
    (RuleKind.INDEX, "entry_class"),
    (RuleKind.INDEX, "entry_key"),
    (RuleKind.INDEX, "entry_resident"),
    (RuleKind.INDEX, "entry_status"),
    (RuleKind.INDEX, "proposal_node_at"),
    (RuleKind.INDEX, "proposal_node_specialist_id"),
    (RuleKind.INDEX, "set_status"),
    (RuleKind.INDEX, "proposal_node_embedding_vector"),
)

# Two processes creating the same rule at once: the loser is told it already exists.
_ALREADY_THERE = (
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
)


@dataclass(frozen=True, slots=True)
class SchemaRule:
    """One constraint or index: its name (the file's), kind, statement and digest."""

    name: str
    kind: RuleKind
    query: Query
    digest: str

    @property
    def line(self) -> str:
        """How the schema record lists the rule: ``name=kind:digest``."""
        return f"{self.name}={self.kind.value}:{self.digest}"


def _statement_digest(text: str) -> str:
    """The digest of a statement's code: comments and spacing do not change it."""
    code = " ".join(
        part
        for line in text.splitlines()
        if not line.lstrip().startswith("//")
        for part in line.split()
    )
    return hashlib.sha256(code.encode("utf-8")).hexdigest()[:16]


def package_rules() -> list[SchemaRule]:
    """Every rule of this package's schema, in file-name order."""
    rules = []
    for query in default_catalog().under("schema"):
        name = query.name.split("/", 1)[1]
        words = [
            w for line in query.text.splitlines() if not line.startswith("//") for w in line.split()
        ]
        # each file under cypher/schema/ makes a constraint or an index: its second word says which
        kind = RuleKind.CONSTRAINT if words[1].upper() == "CONSTRAINT" else RuleKind.INDEX
        rules.append(SchemaRule(name, kind, query, _statement_digest(query.text)))
    return rules


def schema_digest(rules: list[SchemaRule] | None = None) -> str:
    """One digest of the package's whole schema (what ``SCHEMA_VERSION`` names)."""
    lines = sorted(rule.line for rule in (rules if rules is not None else package_rules()))
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class SchemaRecord:
    """What the database says it holds: a version and, per rule name, its kind and digest."""

    version: int
    rules: dict[str, tuple[RuleKind, str]]


@dataclass(frozen=True, slots=True)
class SchemaPlan:
    """What applying the schema would do to one database."""

    recorded: SchemaRecord | None
    create: list[SchemaRule] = field(default_factory=list)
    replace: list[SchemaRule] = field(default_factory=list)
    drop: list[tuple[RuleKind, str]] = field(default_factory=list)

    @property
    def current(self) -> bool:
        """The database records this package's version and every rule as it is."""
        return (
            self.recorded is not None
            and self.recorded.version == SCHEMA_VERSION
            and not (self.create or self.replace or self.drop)
        )

    def describe(self) -> str:
        """Where the database stands, in a few words (for the one-line refusal)."""
        if self.recorded is None:
            return "has no kg-context schema record"
        parts = [f"records schema version {self.recorded.version}"]
        if self.create:
            parts.append(f"{len(self.create)} rule(s) missing")
        if self.replace:
            parts.append(f"{len(self.replace)} changed")
        if self.drop:
            parts.append(f"{len(self.drop)} obsolete")
        return ", ".join(parts)


def read_schema_record(executor: QueryExecutor) -> SchemaRecord | None:
    """The database's schema record (one indexed read), or ``None`` when there is none."""
    rows = executor.read("admin/schema_record")
    if not rows or rows[0]["version"] is None:
        return None
    rules: dict[str, tuple[RuleKind, str]] = {}
    for line in rows[0]["rules"] or []:
        name, _, held = line.partition("=")
        kind, _, digest = held.partition(":")
        if name and kind in RuleKind.__members__.values():
            rules[name] = (RuleKind(kind), digest)
    return SchemaRecord(int(rows[0]["version"]), rules)


def plan_schema(recorded: SchemaRecord | None, *, everything: bool = False) -> SchemaPlan:
    """What to apply given the record: the rules it does not hold or holds with another digest,
    and the obsolete rules while it does not record this version. With ``everything`` every
    rule is (re)created ``IF NOT EXISTS`` and every obsolete rule dropped ``IF EXISTS``."""
    rules = package_rules()
    held = recorded.rules if recorded is not None else {}
    replace = [r for r in rules if r.name in held and held[r.name][1] != r.digest]
    if recorded is None or everything:
        create = [r for r in rules if r not in replace]
        drop = list(OBSOLETE)
    else:
        create = [r for r in rules if r.name not in held]
        drop = list(OBSOLETE) if recorded.version < SCHEMA_VERSION else []
    # A rule the record holds that the package no longer has is dropped too.
    names = {r.name for r in rules} | {name for _, name in drop}
    drop += [(kind, name) for name, (kind, _) in held.items() if name not in names]
    return SchemaPlan(recorded, create, replace, drop)


def ensure_schema(
    executor: QueryExecutor,
    *,
    auto_apply: bool = True,
    everything: bool = False,
    await_timeout_s: int = 300,
    on_step: Callable[[str], None] | None = None,
) -> SchemaPlan:
    """The one way the schema is ensured (``Engine.connect()``, ``kg-context schema apply``,
    ``make bench`` and every benchmark come here): read the record (one read), and when it
    does not record this package's schema apply what differs if ``auto_apply``, else refuse
    with one line naming the command to run. ``everything`` (the command) also re-creates
    every rule ``IF NOT EXISTS`` and drops every obsolete one ``IF EXISTS`` whatever the record
    says. A record newer than the package is always refused."""
    recorded = read_schema_record(executor)
    if recorded is not None and recorded.version > SCHEMA_VERSION:
        raise SchemaError(
            f"the database records kg-context schema version {recorded.version}, newer than "
            f"this kg-context's {SCHEMA_VERSION}; upgrade kg-context (an older one never "
            "changes a newer schema)"
        )
    plan = plan_schema(recorded, everything=everything)
    if plan.current:
        return plan
    if not auto_apply:
        raise SchemaError(
            f"the database {plan.describe()} (this kg-context needs schema version "
            f"{SCHEMA_VERSION}); run `{APPLY_COMMAND}` "
            "(or set KG_CONTEXT_SCHEMA_AUTO_APPLY=true)"
        )
    _apply(executor, plan, await_timeout_s, on_step or (lambda _step: None))
    return plan


def check_schema(
    executor: QueryExecutor, *, auto_apply: bool, await_timeout_s: int = 300
) -> SchemaPlan:
    """What ``Engine.connect()`` runs: ``ensure_schema`` with the engine's setting."""
    return ensure_schema(executor, auto_apply=auto_apply, await_timeout_s=await_timeout_s)


def schema_steps() -> int:
    """How many steps ``apply_schema`` reports: one per rule, the wait for indexes, the labels
    of sets, halts and receipts written before those existed, the entry backfill, the
    essential edges, the boundary tokens and the empty lists."""
    return len(package_rules()) + 6


def apply_schema(
    executor: QueryExecutor,
    *,
    await_timeout_s: int = 300,
    on_step: Callable[[str], None] | None = None,
) -> list[str]:
    """``kg-context schema apply``: ``ensure_schema`` with ``everything``; returns the names of
    the package's rules. ``on_step`` is told each rule as it is applied, then ``await indexes``,
    ``labels``, ``backfill``, ``essential edges``, ``boundary tokens`` and ``empty lists`` (a
    progress bar counts them: ``schema_steps``)."""
    ensure_schema(executor, everything=True, await_timeout_s=await_timeout_s, on_step=on_step)
    return [rule.name for rule in package_rules()]


def _apply(
    executor: QueryExecutor,
    plan: SchemaPlan,
    await_timeout_s: int,
    on_step: Callable[[str], None],
) -> None:
    for rule in plan.replace:
        _drop(executor, rule.kind, rule.name)
    for rule in [*plan.replace, *plan.create]:
        on_step(rule.name)
        try:
            executor.write(rule.query.name)
        except QueryError as err:
            if err.code not in _ALREADY_THERE:
                raise SchemaError(
                    f"cannot create {rule.kind} {rule.name}: {err}; fix the cause and run "
                    f"`{APPLY_COMMAND}`"
                ) from err
    on_step("await indexes")
    executor.write("admin/await_indexes", timeout_s=await_timeout_s)
    # Only once the replacements are online: uniqueness is never left unguarded.
    for kind, name in plan.drop:
        _drop(executor, kind, name)
    # Labels Browser styles by (status of sets and halts, kind of receipts) on what was written
    # before the gate kept them (an upgrade from a schema before version 2): only labels are
    # added, no property changes. A current database skips the scan.
    on_step("labels")
    if plan.recorded is None or plan.recorded.version < 2:
        executor.write("admin/label_sets_and_halts")
        executor.write("admin/label_receipts")
    on_step("backfill")
    if plan.recorded is None or plan.recorded.version < 4:
        backfill_entries(executor)
    on_step("essential edges")
    if plan.recorded is None or plan.recorded.version < 9:
        add_essential_edges(executor)
    on_step("boundary tokens")
    if plan.recorded is None or plan.recorded.version < 10:
        shorten_boundary_tokens(executor)
    on_step("empty lists")
    if plan.recorded is None or plan.recorded.version < 11:
        drop_empty_lists(executor)
    rules = package_rules()
    executor.write(
        "admin/record_schema",
        version=SCHEMA_VERSION,
        rules=[rule.line for rule in rules],
        digest=schema_digest(rules),
    )


def backfill_entries(executor: QueryExecutor, batch: int = 10_000) -> int:
    """Schema version 4 on entries written before it: ``boundary_token`` (the fulltext index
    filters by it) and ``embedding_pending`` where no embedding exists yet, boundary by
    boundary in batches (each its own transaction, so no transaction holds the whole record).
    Returns how many entries were touched; a current database touches none."""
    total = 0
    for row in executor.read("admin/entries_without_boundary_token"):
        boundary_id = row["boundary_id"]
        while True:
            written = executor.write(
                "admin/backfill_entry_tokens",
                boundary_id=boundary_id,
                token=boundary_token(boundary_id),
                batch=batch,
            )
            count = int(written[0]["written"]) if written else 0
            total += count
            if count < batch:
                break
    return total


def add_essential_edges(executor: QueryExecutor, batch: int = 10_000) -> int:
    """Schema version 9 on derivations written before it: ``ESSENTIALLY_DERIVED_FROM`` beside
    each essential ``DERIVED_FROM`` between two entries of one boundary (the invalidation walk
    follows it), boundary by boundary in batches (each its own transaction). Only adds edges.
    Returns how many it added; a current database adds none."""
    total = 0
    for row in executor.read("admin/boundaries_of_entries"):
        while True:
            written = executor.write(
                "admin/add_essential_edges", boundary_id=row["boundary_id"], batch=batch
            )
            count = int(written[0]["written"]) if written else 0
            total += count
            if count < batch:
                break
    return total


def shorten_boundary_tokens(executor: QueryExecutor, batch: int = 10_000) -> int:
    """Schema version 10 on entries and thoughts written before it: their ``boundary_token`` cut
    to the ``BOUNDARY_TOKEN_LENGTH`` characters ``boundary_token`` now gives (its prefix), in
    batches (each its own transaction); the fulltext indexes follow. The token is search's, not
    the record's (the ledger seals no token). Returns how many nodes it changed; a current
    database changes none."""
    total = 0
    for statement in ("admin/shorten_entry_tokens", "admin/shorten_thought_tokens"):
        while True:
            written = executor.write(statement, length=BOUNDARY_TOKEN_LENGTH, batch=batch)
            count = int(written[0]["written"]) if written else 0
            total += count
            if count < batch:
                break
    return total


def drop_empty_lists(executor: QueryExecutor, batch: int = 10_000) -> int:
    """Schema version 11 on sets and proposals written before it: an empty ``lineage`` or
    ``dependencies`` of a set and an empty ``targets`` of a proposal removed, in batches (each
    its own transaction). Every reader takes an absent one as empty, and the ledger seals none
    of them (a set's ``targets``, which it seals, stays as written). Returns how many nodes it
    changed; a current database changes none."""
    total = 0
    for statement in ("admin/drop_empty_set_lists", "admin/drop_empty_proposal_targets"):
        while True:
            written = executor.write(statement, batch=batch)
            count = int(written[0]["written"]) if written else 0
            total += count
            if count < batch:
                break
    return total


def _drop(executor: QueryExecutor, kind: RuleKind, name: str) -> None:
    executor.write(f"admin/drop_{kind.value}", name=name)
