"""The words of what the engine records about its own activity: what started a czar run, which
proposals attention reads from, and the thoughts the record keeps of every proposal (re-exported
by ``kg_context.vocabulary``)."""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "DEFAULT_CZAR_EVERY_COMMITS",
    "THOUGHT_LABEL",
    "AttentionScope",
    "CzarTrigger",
    "ThoughtOutcome",
    "ThoughtSource",
    "WaveReason",
]


# -- what started a czar run ----------------------------------------------------------------------
# The czar's cadence a boundary is recorded with when its creator says nothing (and what a
# boundary recorded before boundaries kept their cadence runs by): every 25 sets of its work.
DEFAULT_CZAR_EVERY_COMMITS = 25


class CzarTrigger(StrEnum):
    """Why a czar run happened (``:CzarReport.trigger``): the every-N-commits cadence the
    boundary records, or an explicit run (``kg-context czar run``, ``BoundaryHandle.run_czar``)."""

    CADENCE = "cadence"
    MANUAL = "manual"


# -- what attention reads from ---------------------------------------------------------------------
class AttentionScope(StrEnum):
    """Which proposals an attention score and a track record are read from.

    ``boundary`` (the default): the specialist's proposals in one boundary only, so its work in
    one boundary never moves its standing in another. ``global``: its proposals in every boundary
    (the explicit option, and the only one for waves recorded without a boundary).
    """

    BOUNDARY = "boundary"
    GLOBAL = "global"


# -- thoughts: what the record keeps of every proposal -------------------------------------------
# Every attention ProposalNode and every bus proposal carries this label beside its own: its text
# is kept in the record (out of the window) and searchable per boundary.
THOUGHT_LABEL = "Thought"


class ThoughtSource(StrEnum):
    """Where a thought was produced: an attention wave or a broadcast of the cycle's bus."""

    ATTENTION = "attention"
    BUS = "bus"


class ThoughtOutcome(StrEnum):
    """What became of a thought in its contest (``thought_outcome``), beside its reason.

    ``won``: selected in its wave, or a bus proposal arbitration accepted and admission applied.
    ``lost``: an attention proposal that was not selected (``WaveReason``). ``inhibited``: a bus
    proposal arbitration inhibited or admission did not apply (the cycle's ``ArbitrationReason``
    or ``AdmissionReason``, and ``inhibited_by`` when another proposal beat it).
    """

    WON = "won"
    LOST = "lost"
    INHIBITED = "inhibited"


class WaveReason(StrEnum):
    """Why an attention proposal won or lost its wave (``thought_reason``)."""

    SELECTED = "selected"  # top_k, at or above min_composite
    NO_COMPETITION = "no_competition"  # fewer than min_wave_outputs outputs: nobody wins
    BELOW_MIN_COMPOSITE = "below_min_composite"
    OUTRANKED = "outranked"  # at or above min_composite, but top_k others ranked higher
