"""The record room: everything ever produced, traced rather than searched.

``history`` (index, ledger walk, as-of), ``search`` (fulltext and vector over the record,
answering with set ids and status), ``walk`` and ``invalidation`` (the walk forward over
provenance and the one blast-radius set), ``observability`` (false retirements, resurrections),
``ontology`` (class changes as governed sets). Writes only through the gate.
"""
