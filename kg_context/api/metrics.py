"""``/metrics`` in the Prometheus text format (0.0.4), written by hand (no client library).

Two kinds of figures:
- this server's own counters: request latency (a histogram by method, route template and
  status), and the gate decisions its requests received, by outcome and by reason code;
- gauges read from the database at scrape time (two reads): halts by reason code and status,
  and per boundary the seq, committed and resident tokens, the retention ratio and live
  entries (the first ``metrics_max_boundaries`` boundaries by id; ``kg_context_boundaries``
  counts them all); and the attention loop's process telemetry.

Reason codes, outcomes and halt statuses are enumerated from ``kg_context.vocabulary``, so a
new reason code appears (at 0) without touching this file.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from kg_context.attention import workspace_attention_telemetry
from kg_context.gate.pure.decision import Decision
from kg_context.residency.metrics import Overview
from kg_context.vocabulary import HaltStatus, Outcome, ReasonCode

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(**labels: str) -> str:
    if not labels:
        return ""
    return "{" + ",".join(f'{k}="{_escape(v)}"' for k, v in labels.items()) + "}"


def _number(value: float) -> str:
    return repr(float(value)) if isinstance(value, float) else str(value)


@dataclass
class _Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))
    total: int = 0
    sum: float = 0.0

    def observe(self, seconds: float) -> None:
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.counts[i] += 1
        self.total += 1
        self.sum += seconds


class Metrics:
    """The server's counters (thread-safe) and the text rendering."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latency: dict[tuple[str, str, str], _Histogram] = defaultdict(_Histogram)
        self._decisions: dict[str, int] = defaultdict(int)
        self._refusals: dict[str, int] = defaultdict(int)

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        with self._lock:
            self._latency[(method, route, str(status))].observe(seconds)

    def count_decisions(self, decisions: Iterable[Decision]) -> None:
        with self._lock:
            for decision in decisions:
                if decision.replayed:
                    continue  # a replay is the record's earlier decision, not a new one
                self._decisions[str(decision.outcome)] += 1
                if decision.reason_code:
                    self._refusals[decision.reason_code] += 1

    def render(
        self,
        overview: Overview,
        *,
        units: int = 0,
        attempts: int = 0,
        retries: Mapping[str, int] | None = None,
    ) -> str:
        """The text; ``units``, ``attempts`` and ``retries`` are the engine's executor counts
        (transactions run, their attempts, and the errors that caused a retry, by code)."""
        lines: list[str] = []
        with self._lock:
            self._render_requests(lines)
            self._render_decisions(lines)
        _render_transactions(lines, units, attempts, retries or {})
        _render_overview(lines, overview)
        _render_attention(lines)
        return "\n".join(lines) + "\n"

    def _render_requests(self, lines: list[str]) -> None:
        name = "kg_context_http_request_duration_seconds"
        lines += [
            f"# HELP {name} HTTP request latency by method, route template and status.",
            f"# TYPE {name} histogram",
        ]
        for (method, route, status), histogram in sorted(self._latency.items()):
            labels = {"method": method, "route": route, "status": status}
            for bound, count in zip(BUCKETS, histogram.counts, strict=True):
                lines.append(f"{name}_bucket{_labels(**labels, le=repr(bound))} {count}")
            lines.append(f"{name}_bucket{_labels(**labels, le='+Inf')} {histogram.total}")
            lines.append(f"{name}_sum{_labels(**labels)} {histogram.sum!r}")
            lines.append(f"{name}_count{_labels(**labels)} {histogram.total}")

    def _render_decisions(self, lines: list[str]) -> None:
        name = "kg_context_gate_decisions_total"
        lines += [
            f"# HELP {name} Gate decisions on sets this server submitted, by outcome.",
            f"# TYPE {name} counter",
        ]
        for outcome in Outcome:
            lines.append(f"{name}{_labels(outcome=outcome.value)} {self._decisions[outcome]}")
        name = "kg_context_gate_refusals_total"
        lines += [
            f"# HELP {name} Halts and rejections this server's requests received, by reason code.",
            f"# TYPE {name} counter",
        ]
        codes = [c.value for c in ReasonCode] + sorted(
            set(self._refusals) - {c.value for c in ReasonCode}
        )
        known = {c.value: c.outcome.value for c in ReasonCode}
        for code in codes:
            labels = _labels(reason_code=code, outcome=known.get(code, "unknown"))
            lines.append(f"{name}{labels} {self._refusals.get(code, 0)}")


def _render_overview(lines: list[str], overview: Overview) -> None:
    name = "kg_context_halts"
    lines += [
        f"# HELP {name} Halts in the database by reason code and status (open, resolved).",
        f"# TYPE {name} gauge",
    ]
    halt_codes = [c.value for c in ReasonCode if c.outcome is Outcome.HALT]
    recorded = {code for code, _status in overview.halts}
    for code in [*halt_codes, *sorted(recorded - set(halt_codes))]:
        for status in HaltStatus:
            value = overview.halts.get((code, status.value), 0)
            lines.append(f"{name}{_labels(reason_code=code, status=status.value)} {value}")
    lines += [
        "# HELP kg_context_boundaries Boundaries in the database.",
        "# TYPE kg_context_boundaries gauge",
        f"kg_context_boundaries {overview.boundaries_total}",
    ]
    gauges = {
        "kg_context_boundary_seq": ("The boundary's seq (ratified sets).", "seq"),
        "kg_context_boundary_committed_tokens": ("Tokens ever committed.", "committed_tokens"),
        "kg_context_boundary_resident_tokens": ("Tokens in the window now.", "resident_tokens"),
        "kg_context_boundary_live_entries": ("Live entries.", "live_count"),
    }
    for metric, (help_text, attribute) in gauges.items():
        lines += [f"# HELP {metric} {help_text}", f"# TYPE {metric} gauge"]
        for gauge in overview.boundaries:
            value = getattr(gauge, attribute)
            lines.append(f"{metric}{_labels(boundary=gauge.boundary_id)} {value}")
    metric = "kg_context_boundary_retention_ratio"
    lines += [
        f"# HELP {metric} Committed tokens / resident tokens (absent while the window is empty).",
        f"# TYPE {metric} gauge",
    ]
    for gauge in overview.boundaries:
        if gauge.retention_ratio is not None:
            labels = _labels(boundary=gauge.boundary_id)
            lines.append(f"{metric}{labels} {_number(gauge.retention_ratio)}")


def _render_transactions(
    lines: list[str], units: int, attempts: int, retries: Mapping[str, int]
) -> None:
    for name, value, text in (
        ("kg_context_db_transactions_total", units, "Units of work the engine ran."),
        ("kg_context_db_attempts_total", attempts, "Their attempts (a retry is one more)."),
    ):
        lines += [f"# HELP {name} {text}", f"# TYPE {name} counter", f"{name} {value}"]
    name = "kg_context_db_retries_total"
    lines += [
        f"# HELP {name} Failures retried (deadlocks, an unavailable database), by Neo4j code.",
        f"# TYPE {name} counter",
    ]
    lines += [f"{name}{_labels(code=code)} {n}" for code, n in sorted(retries.items())]


def _render_attention(lines: list[str]) -> None:
    telemetry = workspace_attention_telemetry().as_dict()
    for key, value in sorted(telemetry.items()):
        metric = f"kg_context_attention_{key}"
        if isinstance(value, bool):
            lines += [
                f"# HELP {metric} Attention loop telemetry (1 when suspected).",
                f"# TYPE {metric} gauge",
                f"{metric} {int(value)}",
            ]
        else:
            lines += [
                f"# HELP {metric}_total Attention loop telemetry of this process.",
                f"# TYPE {metric}_total counter",
                f"{metric}_total {value}",
            ]
