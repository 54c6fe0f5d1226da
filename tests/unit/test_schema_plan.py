"""The schema record and the plan to apply (pure logic): which rules a database lacks, which
changed, which are obsolete; and the version the package ships names exactly its rules."""

from __future__ import annotations

from kg_context.db.schema import (
    OBSOLETE,
    SCHEMA_VERSION,
    RuleKind,
    SchemaRecord,
    package_rules,
    plan_schema,
    schema_digest,
)

# The digest of every rule of schema version SCHEMA_VERSION. A change to a file in
# cypher/schema/ (code, not comments) changes it: bump SCHEMA_VERSION (and list the rules it
# replaces in OBSOLETE), then update this digest.
VERSION_DIGEST = {
    2: "8c3bbe607b8f5bdfd1ae1513f2bfadc25f6c3e19d5ad796760f4c3ed5d49f404",
    3: "a6fd08622d8ca9221d9e7a1a9744386c5f6296d1e71069f9245f16a2f48c96fa",
    # 4: the boundary token in the fulltext index; (boundary_id, key),
    # (boundary_id, embedding_pending) and per-boundary attention indexes.
    4: "4de7f538bd01952b92ee4bb5ddf5f5b8d057727c3abb79a16bb6d4d9aaaacae8",
    # 5: the governed history index (IndexEntry); (boundary_id, id) of
    # :LeaseRenewal unique; the fulltext index over thoughts (Thought.key, text,
    # boundary_token) and (boundary_id, id) uniqueness of bus proposals.
    5: "08cf1bebec6b3ab2a7f25f1e200c8c3ad5986053ed3bf5bcf0fbba323a4874b8",
    6: "10f8423978645df60604c9658a589bd45b8ed84877cd2cd3044791939ce76e3e",
    # 7: the resident entries of a boundary by key (the gate's [on_revision] read).
    7: "28576d35a9707e580dabb4388ed136754ebfac665fa8898a2bcb7e5074bd02f3",
    # 8: no shared vector index over entries, and none of the range indexes no statement
    # seeks by (entry class, key, resident, status; ProposalNode at, specialist_id; set status).
    8: "8bfb7ac923e5af536ac509974721148a481fbf62d2a5c206c15bee37a8a40ca7",
    # 9: the same rules; a data step adds ESSENTIALLY_DERIVED_FROM beside essential
    # DERIVED_FROM edges written before it.
    9: "8bfb7ac923e5af536ac509974721148a481fbf62d2a5c206c15bee37a8a40ca7",
    # 10: no vector index over ProposalNode embeddings (no statement queried it); a data step
    # cuts the boundary tokens written before it to 25 characters.
    10: "34c84ad7c68e7e587d8a0f2ec68cc071b6ddd7848db553215fba30ecbf7b4fd1",
    # 11: the same rules; a data step removes the empty lists written before it (a set's
    # lineage and dependencies, a proposal's targets), which the gate no longer stores.
    11: "34c84ad7c68e7e587d8a0f2ec68cc071b6ddd7848db553215fba30ecbf7b4fd1",
}


def _record(version: int = SCHEMA_VERSION) -> SchemaRecord:
    return SchemaRecord(version, {r.name: (r.kind, r.digest) for r in package_rules()})


def test_the_shipped_version_names_exactly_the_shipped_rules() -> None:
    assert schema_digest() == VERSION_DIGEST[SCHEMA_VERSION], (
        "cypher/schema/ changed: bump SCHEMA_VERSION, list replaced rules in OBSOLETE, and "
        "record the new digest here"
    )


def test_rules_know_their_kind_and_obsolete_ones_are_gone() -> None:
    rules = {r.name: r for r in package_rules()}
    assert rules["entry_id_in_boundary_unique"].kind is RuleKind.CONSTRAINT
    assert rules["proposal_node_attention"].kind is RuleKind.INDEX
    assert rules["entry_body_fulltext"].kind is RuleKind.INDEX
    assert not {name for _, name in OBSOLETE} & set(rules)


def test_a_database_recording_this_version_needs_nothing() -> None:
    plan = plan_schema(_record())
    assert plan.current
    assert (plan.create, plan.replace, plan.drop) == ([], [], [])


def test_no_record_creates_everything_and_drops_the_obsolete() -> None:
    plan = plan_schema(None)
    assert not plan.current
    assert [r.name for r in plan.create] == [r.name for r in package_rules()]
    assert plan.drop == list(OBSOLETE)
    assert plan.describe() == "has no kg-context schema record"


def test_an_older_record_gets_only_what_it_lacks_and_the_obsolete_drops() -> None:
    rules = package_rules()
    held = {r.name: (r.kind, r.digest) for r in rules if r.name != "halt_boundary_set"}
    held["entry_id_unique"] = (RuleKind.CONSTRAINT, "old")
    plan = plan_schema(SchemaRecord(1, held))
    assert [r.name for r in plan.create] == ["halt_boundary_set"]
    assert plan.replace == []
    assert set(plan.drop) == set(OBSOLETE)
    assert (
        plan.describe() == f"records schema version 1, 1 rule(s) missing, {len(OBSOLETE)} obsolete"
    )


def test_a_changed_statement_is_replaced_and_a_dropped_rule_is_dropped() -> None:
    record = _record()
    record.rules["entry_boundary_key"] = (RuleKind.INDEX, "0000")
    record.rules["gone_index"] = (RuleKind.INDEX, "1111")
    plan = plan_schema(record)
    assert [r.name for r in plan.replace] == ["entry_boundary_key"]
    assert plan.create == []
    assert plan.drop == [(RuleKind.INDEX, "gone_index")]


def test_a_version_2_record_replaces_the_fulltext_index_and_adds_the_boundary_indexes() -> None:
    rules = {r.name: r for r in package_rules()}
    new = {
        "entry_boundary_key",
        "entry_boundary_embedding_pending",
        "proposal_node_boundary_attention",
    }
    held = {name: (r.kind, r.digest) for name, r in rules.items() if name not in new}
    held["entry_body_fulltext"] = (RuleKind.INDEX, "version-2-digest")
    plan = plan_schema(SchemaRecord(2, held))
    assert {r.name for r in plan.create} == new
    assert [r.name for r in plan.replace] == ["entry_body_fulltext"]
    assert "boundary_token" in rules["entry_body_fulltext"].query.text


def test_apply_everything_recreates_all_if_not_exists_whatever_the_record() -> None:
    plan = plan_schema(_record(), everything=True)
    assert len(plan.create) == len(package_rules())
    assert plan.drop == list(OBSOLETE)
