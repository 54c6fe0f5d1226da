"""Consensus operators over proposals' composites, and the registry that names them.

Built in: ``mean``, ``median``, ``max``, ``min`` and ``log_pool`` (also ``log-pool``): the
normalized logarithmic opinion pool. Each composite c_i in [0, 1] is read as a probability that
the wave's answer is right; the pool is the normalized weighted geometric mean

    log_pool(c) = G / (G + G'),   G = prod(c_i) ** (1/n),   G' = prod(1 - c_i) ** (1/n)

(equal weights), computed in log space with every c_i clamped to [1e-9, 1 - 1e-9] so one 0 or 1
cannot make it undefined. It rewards agreement: the pool of (0.8, 0.8) is 0.8, and one dissenter
pulls it further than it would pull the mean's. ``register_consensus_operator(name, fn)`` adds
one; an unknown name is a ``ConfigurationError``.
"""

from __future__ import annotations

import math
import statistics
import threading
from collections.abc import Callable, Iterable, Sequence

from kg_context.attention.models import ScoredProposal
from kg_context.errors import ConfigurationError, InputValidationError

__all__ = [
    "ConsensusOperator",
    "consensus_operators",
    "consensus_score",
    "log_pool",
    "register_consensus_operator",
]

ConsensusOperator = Callable[[Sequence[float]], float]
_EPSILON = 1e-9


def log_pool(values: Sequence[float]) -> float:
    """The normalized logarithmic (geometric) opinion pool of values in [0, 1]."""
    if not values:
        raise ValueError("log_pool of nothing")
    clamped = [min(1.0 - _EPSILON, max(_EPSILON, v)) for v in values]
    log_yes = sum(math.log(v) for v in clamped) / len(clamped)
    log_no = sum(math.log(1.0 - v) for v in clamped) / len(clamped)
    # G / (G + G') = 1 / (1 + exp(log G' - log G)), stable for any magnitude.
    return 1.0 / (1.0 + math.exp(log_no - log_yes))


_lock = threading.Lock()
_operators: dict[str, ConsensusOperator] = {
    "mean": lambda v: statistics.fmean(v),
    "median": lambda v: float(statistics.median(v)),
    "max": lambda v: float(max(v)),
    "min": lambda v: float(min(v)),
    "log_pool": log_pool,
    "log-pool": log_pool,
}


def register_consensus_operator(name: str, fn: ConsensusOperator, *, replace: bool = False) -> None:
    """Add an operator by name (``replace=True`` to redefine one); process-wide."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigurationError("a consensus operator needs a non-empty name")
    if not callable(fn):
        raise ConfigurationError(f"consensus operator {name!r} is not callable")
    with _lock:
        if name in _operators and not replace:
            raise ConfigurationError(
                f"consensus operator {name!r} exists; pass replace=True to redefine it"
            )
        _operators[name] = fn


def consensus_operators() -> list[str]:
    """The registered operator names."""
    with _lock:
        return sorted(_operators)


def consensus_score(
    proposals: Iterable[ScoredProposal | float], operator: str = "mean"
) -> float | None:
    """Aggregate the composites of ``proposals`` (or bare scores) with a named operator.

    ``None`` when there is nothing to aggregate (a wave with no winner).
    """
    with _lock:
        fn = _operators.get(operator)
    if fn is None:
        raise ConfigurationError(
            f"unknown consensus operator {operator!r}; known: {', '.join(consensus_operators())} "
            "(add one with register_consensus_operator)"
        )
    values = []
    for item in proposals:
        value = item.composite if isinstance(item, ScoredProposal) else item
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputValidationError(f"a consensus input is a score, not {value!r}")
        if not math.isfinite(value):
            raise InputValidationError(f"a consensus input must be finite, not {value!r}")
        values.append(float(value))
    if not values:
        return None
    result = fn(values)
    if isinstance(result, bool) or not isinstance(result, int | float) or not math.isfinite(result):
        raise ConfigurationError(
            f"consensus operator {operator!r} returned {result!r}, not a finite number"
        )
    return float(result)
