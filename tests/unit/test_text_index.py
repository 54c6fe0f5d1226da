"""The boundary as one fulltext token: distinct, word-only, and always required."""

from __future__ import annotations

import hashlib
import re

from kg_context.db.text_index import (
    BOUNDARY_TOKEN_LENGTH,
    boundary_fulltext_query,
    boundary_token,
    fulltext_words,
)


def test_a_boundary_token_is_one_word_of_letters_and_digits() -> None:
    token = boundary_token("team-7 / ops: β")
    assert re.fullmatch(r"b[0-9a-f]{24}", token)
    assert len(token) == BOUNDARY_TOKEN_LENGTH
    assert boundary_token("team-7") != boundary_token("team 7") != boundary_token("team_7")
    assert boundary_token("team-7") == boundary_token("team-7")


def test_a_token_is_the_prefix_of_the_one_written_before_schema_version_10() -> None:
    """Schema version 10 shortens old tokens by cutting them: the cut is the new token."""
    boundary_id = "team-7 / ops: β"
    old = "b" + hashlib.sha256(boundary_id.encode("utf-8")).hexdigest()
    assert old[:BOUNDARY_TOKEN_LENGTH] == boundary_token(boundary_id)


def test_the_query_requires_the_boundary_and_any_word() -> None:
    query = boundary_fulltext_query("team-7", 'use AND "Postgres" (v1) OR -neo4j* ~x:y')
    assert query == (
        f"+boundary_token:{boundary_token('team-7')} +(use and Postgres v1 or neo4j x y)"
    )
    assert boundary_fulltext_query("team-7", "?!") is None
    assert fulltext_words("NOT TO") == "not to"
