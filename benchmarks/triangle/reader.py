"""The one deterministic reader: it answers a probe from a context text, the same way for every
system. It sees only the text (never which system produced it) and decides by these rules.

Lines. Every line of the context is read; a line that carries no entry head (``@s<seq> <class>
<key> <op>``, anywhere in the line, so an interface's ``body: @s12 ...`` counts) is ignored. A line
may start with a status tag ``- [<status>...] `` (the governed window's rendering). A line is
*withdrawn* when its tag's first status is superseded, retired, invalidated or explored, or when it
is a recalled copy whose recall tag says the original was superseded or invalidated (a copy of a
retired original is archived, not wrong). A line is *flagged* when its status is at_risk or
challenged (it still counts: it is standing). Untagged lines (the baselines) are never withdrawn.

Current-state probes use non-withdrawn lines only; historical probes (``value_at``,
``why_changed``) use every line (history is history). "Newest" means the highest ``@s`` stamp.

- ``current_value`` / ``revision_without_supersession`` (K): the newest ``decision``/``pin`` line
  of K with ``=``; its value. None: unknown.
- ``in_force`` (K): the newest ``OPEN``/``CLOSED`` line of K. In force iff it is ``OPEN`` and,
  when it states ``lease: L``, ``stamp + L >= now``. No line: not in force (closed world).
- ``depends_on`` (X): X's current line is the newest line of key X with ``=`` or ``OPEN``; the
  answer is every other key whose newest such line names ``X@s<that stamp>`` under ``based on``
  (when no line of X is in the context, any ``X@s<n>``).
- ``rests_on`` (K): the current decision line of K (as ``current_value``; none: unknown); for each
  ``based on`` reference ``k@s<n>``, the newest line of key k with ``=``, answered as ``k=value``;
  any reference without a line makes the answer unknown.
- ``why_changed`` (K, s): the ``decision``/``pin`` line of K stamped exactly ``@s<s>``; the
  ``[r-xxxxxx]`` tag of its ``because``. None: unknown.
- ``value_at`` (K, s): the newest ``decision``/``pin`` line of K with ``=`` stamped at or before s;
  its value. None: unknown.

An answer is correct iff it equals the probe's truth (sets compare as sets). Unknown is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmarks.triangle.workload import UNKNOWN, Answer, Probe

__all__ = ["Line", "Reading", "parse", "read"]

_HEAD = re.compile(
    r"@s(?P<seq>\d+) (?P<cls>[a-z_]+) (?P<key>\S+) (?P<op>=|OPEN|CLOSED|REJECTED|NOTE)"
    r"(?: (?P<value>[^|\s]+))?"
)
_TAG = re.compile(r"^- \[(?P<tag>[^\]]*)\] ")
_RECALLED = re.compile(r"recalled: matched in set \d+, (?P<status>[a-z_]+)")
_RTAG = re.compile(r"\[(r-[0-9a-f]{6})\]")
_REF = re.compile(r"(\S+)@s(\d+)")
WITHDRAWN = frozenset({"superseded", "retired", "invalidated", "explored"})
RECALL_WITHDRAWN = frozenset({"superseded", "invalidated"})
FLAGGED = frozenset({"at_risk", "challenged"})
DECISION_TOKENS = frozenset({"decision", "pin"})


@dataclass(frozen=True, slots=True)
class Line:
    """One parsed entry line of a context."""

    stamp: int
    cls: str
    key: str
    op: str
    value: str | None
    because: str | None
    based_on: tuple[tuple[str, int], ...]
    lease: int | None
    withdrawn: bool
    flagged: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """The reader's answer, and whether any line it used was flagged at risk or challenged."""

    answer: Answer
    flagged: bool


def parse(context: str) -> list[Line]:
    out = []
    for raw in context.splitlines():
        head = _HEAD.search(raw)
        if head is None:
            continue
        tag = _TAG.match(raw)
        status = ""
        recalled = None
        if tag is not None:
            status = tag.group("tag").split(";", 1)[0].strip()
            found = _RECALLED.search(tag.group("tag"))
            recalled = found.group("status") if found else None
        segments = raw[head.end() :].split(" | ")
        because = based = lease = None
        for segment in segments:
            segment = segment.strip()
            if segment.startswith("because: "):
                because = segment
            elif segment.startswith("based on: "):
                based = segment[len("based on: ") :]
            elif segment.startswith("lease: "):
                digits = segment[len("lease: ") :].strip()
                lease = int(digits) if digits.isdigit() else None
        refs = tuple((k, int(n)) for k, n in _REF.findall(based or ""))
        out.append(
            Line(
                stamp=int(head.group("seq")),
                cls=head.group("cls"),
                key=head.group("key"),
                op=head.group("op"),
                value=head.group("value"),
                because=because,
                based_on=refs,
                lease=lease,
                withdrawn=status in WITHDRAWN or recalled in RECALL_WITHDRAWN,
                flagged=status in FLAGGED,
            )
        )
    return out


def _newest(lines: list[Line]) -> Line | None:
    return max(lines, key=lambda line: (line.stamp, not line.withdrawn), default=None)


def _current(by_key: dict[str, list[Line]], key: str, ops: frozenset[str]) -> Line | None:
    return _newest([line for line in by_key.get(key, []) if line.op in ops])


def read(context: str, probe: Probe) -> Reading:
    """Answer ``probe`` from ``context`` by the rules in this module's docstring."""
    lines = parse(context)
    historical = probe.ptype in ("value_at", "why_changed")
    usable = lines if historical else [line for line in lines if not line.withdrawn]
    by_key: dict[str, list[Line]] = {}
    for line in usable:
        by_key.setdefault(line.key, []).append(line)
    used: list[Line] = []
    answer = _answer(probe, by_key, used)
    return Reading(answer=answer, flagged=any(line.flagged for line in used))


def _answer(probe: Probe, by_key: dict[str, list[Line]], used: list[Line]) -> Answer:
    key = probe.key
    if probe.ptype in ("current_value", "revision_without_supersession"):
        line = _decision(by_key, key)
        if line is None:
            return UNKNOWN
        used.append(line)
        return line.value or UNKNOWN
    if probe.ptype == "in_force":
        line = _current(by_key, key, frozenset({"OPEN", "CLOSED"}))
        if line is None:
            return False
        used.append(line)
        if line.op != "OPEN":
            return False
        return line.lease is None or line.stamp + line.lease >= probe.now
    if probe.ptype == "depends_on":
        subject = _current(by_key, key, frozenset({"=", "OPEN"}))
        if subject is not None:
            used.append(subject)
        found = set()
        for other, others in by_key.items():
            if other == key:
                continue
            line = _newest([x for x in others if x.op in ("=", "OPEN") and x.cls != "rejected"])
            if line is None:
                continue
            if any(
                ref_key == key and (subject is None or ref_stamp == subject.stamp)
                for ref_key, ref_stamp in line.based_on
            ):
                used.append(line)
                found.add(other)
        return frozenset(found)
    if probe.ptype == "rests_on":
        line = _decision(by_key, key)
        if line is None:
            return UNKNOWN
        used.append(line)
        values = set()
        for ref_key, _ in line.based_on:
            cited = _current(by_key, ref_key, frozenset({"="}))
            if cited is None or cited.value is None:
                return UNKNOWN
            used.append(cited)
            values.add(f"{ref_key}={cited.value}")
        return frozenset(values)
    if probe.ptype == "why_changed":
        assert probe.at_seq is not None
        for line in by_key.get(key, []):
            if line.cls in DECISION_TOKENS and line.stamp == probe.at_seq and line.because:
                found_tag = _RTAG.search(line.because)
                if found_tag:
                    used.append(line)
                    return found_tag.group(1)
        return UNKNOWN
    if probe.ptype == "value_at":
        assert probe.at_seq is not None
        at = probe.at_seq
        candidates = [
            x
            for x in by_key.get(key, [])
            if x.cls in DECISION_TOKENS and x.op == "=" and x.stamp <= at
        ]
        line = _newest(candidates)
        if line is None:
            return UNKNOWN
        used.append(line)
        return line.value or UNKNOWN
    raise ValueError(f"unknown probe type {probe.ptype}")


def _decision(by_key: dict[str, list[Line]], key: str) -> Line | None:
    return _newest([x for x in by_key.get(key, []) if x.cls in DECISION_TOKENS and x.op == "="])
