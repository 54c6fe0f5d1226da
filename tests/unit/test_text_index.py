"""The boundary as one fulltext token: distinct, word-only, and always required."""

from __future__ import annotations

import re

from kg_context.db.text_index import boundary_fulltext_query, boundary_token, fulltext_words


def test_a_boundary_token_is_one_word_of_letters_and_digits() -> None:
    token = boundary_token("team-7 / ops: β")
    assert re.fullmatch(r"b[0-9a-f]{64}", token)
    assert boundary_token("team-7") != boundary_token("team 7") != boundary_token("team_7")
    assert boundary_token("team-7") == boundary_token("team-7")


def test_the_query_requires_the_boundary_and_any_word() -> None:
    query = boundary_fulltext_query("team-7", 'use AND "Postgres" (v1) OR -neo4j* ~x:y')
    assert query == (
        f"+boundary_token:{boundary_token('team-7')} +(use and Postgres v1 or neo4j x y)"
    )
    assert boundary_fulltext_query("team-7", "?!") is None
    assert fulltext_words("NOT TO") == "not to"
