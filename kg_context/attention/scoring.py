"""The scorer: pure functions from outputs, embeddings and outcome counts to ranked proposals:
relevance (cosine of unit embeddings), track record (the mean of a Beta posterior over outcomes),
confidence (declared in metadata, else a ``confidence:`` line, else the default), and selection
(the top ``top_k`` reaching ``min_composite``, only with competition).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from kg_context.attention.models import ConfidenceSource, ScoredProposal, SpecialistOutput
from kg_context.errors import InputValidationError
from kg_context.settings import AttentionSettings
from kg_context.vocabulary import WaveReason

__all__ = [
    "SPECIALIST_ID",
    "beta_mean",
    "content_digest",
    "parse_outputs",
    "rank",
    "relevances",
    "select",
    "text_confidence",
    "wave_reason",
]

# Specialist ids travel into node ids and entry keys (insight/<id>/<digest>): no "/" or "#".
SPECIALIST_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,119}$")
_TEXT_CONFIDENCE = re.compile(
    r"(?im)^[\W_]*confidence[*_\s]*[:=][*_\s]*(?P<value>\d+(?:\.\d+)?|\.\d+)\s*(?P<pct>%)?[*_\s.]*$"
)
_OUTPUT_KEYS = frozenset({"text", "confidence"})
# float32 embeddings of one text differ by ~1e-7 between rows of a batch; rounding relevance
# below that noise keeps equal outputs equal, so ties break by specialist id, deterministically.
RELEVANCE_DIGITS = 6


def content_digest(text: str) -> str:
    """SHA-256 of the text with whitespace runs collapsed: the dedup key of an insight."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def text_confidence(text: str) -> float | None:
    """The fallback: the first well-formed ``confidence: x`` line with x in [0, 1] (or 0-100%)."""
    for match in _TEXT_CONFIDENCE.finditer(text):
        value = float(match["value"])
        if match["pct"]:
            value /= 100.0
        if 0.0 <= value <= 1.0:
            return value
    return None


def _declared_confidence(specialist_id: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputValidationError(
            f"output of {specialist_id!r}: confidence must be a number in [0, 1], not {value!r}"
        )
    number = float(value)
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise InputValidationError(
            f"output of {specialist_id!r}: confidence must be in [0, 1], not {value!r}"
        )
    return number


def _parse_one(specialist_id: Any, value: Any, default_confidence: float) -> SpecialistOutput:
    if not isinstance(specialist_id, str) or not SPECIALIST_ID.match(specialist_id):
        raise InputValidationError(
            f"specialist id {specialist_id!r} must match {SPECIALIST_ID.pattern} "
            "(no '/' or '#', at most 120 characters)"
        )
    if isinstance(value, str):
        text, declared = value, None
    elif isinstance(value, Mapping):
        unknown = set(value) - _OUTPUT_KEYS
        if unknown:
            raise InputValidationError(
                f"output of {specialist_id!r} has unknown keys {sorted(map(str, unknown))}; "
                "an output is {'text': str, 'confidence': float in [0, 1]}"
            )
        given = value.get("text")
        if not isinstance(given, str):
            raise InputValidationError(f"output of {specialist_id!r} needs 'text' as a string")
        text, raw = given, value.get("confidence")
        declared = None if raw is None else _declared_confidence(specialist_id, raw)
    else:
        raise InputValidationError(
            f"output of {specialist_id!r} is a string or a mapping, not {type(value).__name__}"
        )
    if not text.strip():
        raise InputValidationError(f"output of {specialist_id!r} is empty")
    if declared is not None:
        return SpecialistOutput(specialist_id, text, declared, ConfidenceSource.METADATA)
    parsed = text_confidence(text)
    if parsed is not None:
        return SpecialistOutput(specialist_id, text, parsed, ConfidenceSource.TEXT)
    return SpecialistOutput(specialist_id, text, default_confidence, ConfidenceSource.DEFAULT)


def parse_outputs(outputs: Mapping[str, Any], default_confidence: float) -> list[SpecialistOutput]:
    """Validate ``{specialist_id: text | {"text", "confidence"}}``, in specialist-id order."""
    if not isinstance(outputs, Mapping):
        raise InputValidationError(
            f"outputs are a mapping of specialist id to output, not {type(outputs).__name__}"
        )
    return [_parse_one(sid, outputs[sid], default_confidence) for sid in sorted(outputs, key=str)]


def beta_mean(successes: int, failures: int, alpha: float, beta: float) -> float:
    """Posterior mean of a success rate under the prior Beta(alpha, beta)."""
    if successes < 0 or failures < 0:
        raise ValueError("outcome counts are never negative")
    return (alpha + successes) / (alpha + beta + successes + failures)


def relevances(vectors: npt.NDArray[np.float32]) -> list[float]:
    """Cosine of row 0 (the query) with every other row, clamped to [0, 1].

    The rows are unit vectors (the embedder normalizes), so the cosine is a dot product.
    """
    if vectors.ndim != 2 or vectors.shape[0] < 1:
        raise ValueError("expected the query's embedding followed by one row per output")
    query, rows = vectors[0], vectors[1:]
    return [round(min(1.0, max(0.0, float(c))), RELEVANCE_DIGITS) for c in rows @ query]


def rank(
    outputs: Sequence[SpecialistOutput],
    *,
    vectors: npt.NDArray[np.float32],
    track_records: Mapping[str, float],
    wave_id: str,
    task_id: str,
    at: datetime,
    settings: AttentionSettings,
) -> list[ScoredProposal]:
    """Score every output and order them best first (composite, then specialist id)."""
    if vectors.shape[0] != len(outputs) + 1:
        raise ValueError("one embedding for the query and one per output expected")
    scored = []
    for output, relevance, vector in zip(outputs, relevances(vectors), vectors[1:], strict=True):
        track = track_records[output.specialist_id]
        composite = (
            settings.weight_relevance * relevance
            + settings.weight_track_record * track
            + settings.weight_confidence * output.confidence
        )
        scored.append(
            ScoredProposal(
                id=f"{wave_id}/{output.specialist_id}",
                wave_id=wave_id,
                specialist_id=output.specialist_id,
                task_id=task_id,
                text=output.text,
                digest=content_digest(output.text),
                relevance=relevance,
                track_record=track,
                confidence=output.confidence,
                confidence_source=output.confidence_source,
                composite=min(1.0, max(0.0, composite)),
                rank=0,
                at=at,
                embedding=tuple(float(x) for x in vector),
            )
        )
    scored.sort(key=lambda p: (-p.composite, p.specialist_id))
    return [replace(p, rank=i) for i, p in enumerate(scored, start=1)]


def select(
    proposals: Sequence[ScoredProposal], settings: AttentionSettings
) -> list[ScoredProposal]:
    """Every proposal, best first, with ``selected`` set on the winners."""
    ordered = sorted(proposals, key=lambda p: (-p.composite, p.specialist_id))
    if len(ordered) < settings.min_wave_outputs:
        return [replace(p, selected=False) for p in ordered]
    chosen = 0
    result = []
    for proposal in ordered:
        wins = chosen < settings.top_k and proposal.composite >= settings.min_composite
        chosen += wins
        result.append(replace(proposal, selected=wins))
    return result


def wave_reason(
    proposal: ScoredProposal, *, competed: bool, settings: AttentionSettings
) -> WaveReason:
    """Why a recorded proposal won or lost its wave: selected; no competition (a wave of fewer
    than ``min_wave_outputs``); below ``min_composite``; or outranked by ``top_k`` others."""
    if proposal.selected:
        return WaveReason.SELECTED
    if not competed:
        return WaveReason.NO_COMPETITION
    if proposal.composite < settings.min_composite:
        return WaveReason.BELOW_MIN_COMPOSITE
    return WaveReason.OUTRANKED
