"""Summaries of one workload's runs, the comparisons between systems, and the targets."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from benchmarks.triangle.params import RunParams
from benchmarks.triangle.runner import SystemRun, group_answers

__all__ = ["ERROR_KINDS", "aggregate_errors", "compare", "summarize", "targets"]

ERROR_KINDS = (
    "false_supersession",
    "missing_dependency",
    "wrong_dependency",
    "fact_correction",
    "omitted_dependency",
    "ontology",
)
# The difference in accuracy (percentage points) below which two systems count as equal when
# classifying what governance did with an error (small samples: stated, not tuned).
TOLERANCE = 0.05
# Fewer probes touched by an error kind than this: no verdict on answers.
MIN_PROBES = 10


def _rate(values: list[bool]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(run: SystemRun, params: RunParams, sets: int) -> dict[str, Any]:
    """One system on one workload."""
    by_cp = group_answers(run.answers)
    accuracy: list[dict[str, Any]] = []
    for cp in sorted(by_cp):
        answers = by_cp[cp]
        accuracy.append(
            {"seq": cp, "accuracy": _rate([a["correct"] for a in answers]), "probes": len(answers)}
        )
    horizon: int = sets
    censored = True
    previous = 0
    for row in accuracy:
        if row["accuracy"] is not None and row["accuracy"] < params.horizon_threshold:
            horizon, censored = previous, False
            break
        previous = int(row["seq"])
    by_type: dict[str, list[bool]] = defaultdict(list)
    for a in run.answers:
        by_type[a["type"]].append(a["correct"])
    stale_probes = [
        a for a in run.answers if a["type"] in ("current_value", "revision_without_supersession")
    ]
    errors: dict[str, dict[str, Any]] = {}
    for kind in ERROR_KINDS:
        touched = [a["correct"] for a in run.answers if kind in a["errors"]]
        errors[kind] = {"probes": len(touched), "accuracy": _rate(touched)}
    clean = [a["correct"] for a in run.answers if not a["errors"]]
    last = run.checkpoints[-1] if run.checkpoints else {}
    fr = [c["false_retirements"] for c in run.checkpoints if c.get("false_retirements") is not None]
    fres = [c["false_resurrections"] for c in run.checkpoints]
    return {
        "system": run.name,
        "seconds": round(run.seconds, 1),
        "events": run.events,
        "stream_sha256": run.stream_sha256,
        "probes_sha256": run.probes_sha256,
        "accuracy": accuracy,
        "accuracy_overall": _rate([a["correct"] for a in run.answers]),
        "accuracy_by_type": {k: _rate(v) for k, v in sorted(by_type.items())},
        "accuracy_clean_probes": _rate(clean),
        "useful_horizon": horizon,
        "useful_horizon_censored": censored,
        "checkpoints_at_or_above_threshold": sum(
            1 for row in accuracy if (row["accuracy"] or 0.0) >= params.horizon_threshold
        ),
        "tokens_per_probe": _mean([a["tokens"] for a in run.answers]),
        "recalls": sum(a["recalls"] for a in run.answers),
        "recalls_per_probe": _mean([a["recalls"] for a in run.answers]),
        "rehydrated_tokens": sum(a["rehydrated_tokens"] for a in run.answers),
        "unknown_rate": _rate([a["unknown"] for a in run.answers]),
        "flagged_answers": sum(a["flagged"] for a in run.answers),
        "stale_answers": sum(a["stale"] for a in stale_probes),
        "stale_state_rejection": _rate([not a["stale"] for a in stale_probes]),
        "errors": errors,
        "retention_ratio_final": last.get("retention_ratio"),
        "retention_ratio_state_final": last.get("retention_ratio_state"),
        "resident_tokens_final": last.get("resident_tokens"),
        "committed_tokens_final": last.get("committed_tokens"),
        "false_retirements_final": last.get("false_retirements"),
        "false_retirements_max": max(fr) if fr else None,
        "false_resurrections_mean": _mean(fres) if fres else None,
        "checkpoints": [
            {k: v for k, v in c.items() if not isinstance(v, frozenset)} for c in run.checkpoints
        ],
        "blast_radius": run.blast,
        "finish": run.finish,
    }


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _mean(values: list[float] | list[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def compare(summaries: dict[str, dict[str, Any]], governed: str) -> dict[str, Any]:
    """The governed system against both baselines on one workload."""
    g = summaries[governed]
    t = summaries["transcript"]
    r = summaries["retrieval"]
    hashes = {name: s["stream_sha256"] for name, s in summaries.items()}
    probe_hashes = {name: s["probes_sha256"] for name, s in summaries.items()}
    per_cp = []
    for gc, tc, rc in zip(g["accuracy"], t["accuracy"], r["accuracy"], strict=True):
        per_cp.append(
            {
                "seq": gc["seq"],
                "governed": gc["accuracy"],
                "transcript": tc["accuracy"],
                "retrieval": rc["accuracy"],
                "met": gc["accuracy"] >= tc["accuracy"] and gc["accuracy"] >= rc["accuracy"],
            }
        )
    t_h, g_h = t["useful_horizon"], g["useful_horizon"]
    ratio = g_h / t_h if t_h else None
    tokens_ratio = g["tokens_per_probe"] / t["tokens_per_probe"] if t["tokens_per_probe"] else None
    verdicts = {}
    for kind in summaries[governed]["errors"]:
        verdicts[kind] = _verdict(kind, g, t, r)
    return {
        "governed": governed,
        "streams_identical": len(set(hashes.values())) == 1,
        "stream_sha256": hashes,
        "probes_identical": len(set(probe_hashes.values())) == 1,
        "accuracy_vs_baselines": per_cp,
        "checkpoints_at_or_above_both": sum(c["met"] for c in per_cp),
        "checkpoints": len(per_cp),
        "horizon": {
            "governed": g_h,
            "governed_censored": g["useful_horizon_censored"],
            "transcript": t_h,
            "transcript_censored": t["useful_horizon_censored"],
            "retrieval": r["useful_horizon"],
            "ratio_vs_transcript": ratio,
        },
        "tokens_per_probe_ratio_vs_transcript": tokens_ratio,
        "accuracy_overall": {
            "governed": g["accuracy_overall"],
            "transcript": t["accuracy_overall"],
            "retrieval": r["accuracy_overall"],
        },
        "errors": verdicts,
    }


def _verdict(kind: str, g: dict[str, Any], t: dict[str, Any], r: dict[str, Any]) -> dict[str, Any]:
    """What governance did with one error kind, from accuracy on the probes it touched (each
    system's drop from its own clean-probe accuracy) and from what the engine flagged."""
    out: dict[str, Any] = {"probes": g["errors"][kind]["probes"]}
    drops = {}
    for name, s in (("governed", g), ("transcript", t), ("retrieval", r)):
        touched = s["errors"][kind]["accuracy"]
        clean = s["accuracy_clean_probes"]
        out[f"{name}_accuracy"] = touched
        drops[name] = None if touched is None or clean is None else clean - touched
        out[f"{name}_drop"] = drops[name]
    finish = g["finish"]
    blasts = finish.get("blast_radius") or []
    walks = {
        "false_supersession": [b for b in blasts if b["kind"] == "lie_correction"],
        "fact_correction": [b for b in blasts if b["kind"] == "fact_correction"],
        "omitted_dependency": [b for b in blasts if b["kind"] == "reveal"],
    }.get(kind, [])
    out["walks"] = len(walks)
    out["at_risk_marked"] = sum(len(b["at_risk"]) for b in walks)
    out["flagged_marked"] = sum(len(b["flagged"]) for b in walks)
    labels = []
    gd = drops["governed"]
    ga = out["governed_accuracy"]
    pairs: list[tuple[float, float]] = []
    for name in ("transcript", "retrieval"):
        acc, drop = out[f"{name}_accuracy"], drops[name]
        if acc is not None and drop is not None:
            pairs.append((float(acc), drop))
    if out["probes"] < MIN_PROBES or ga is None or gd is None or not pairs:
        labels.append(f"too few probes to judge answers (< {MIN_PROBES})")
    elif any(ga < acc - TOLERANCE and gd > drop + TOLERANCE for acc, drop in pairs):
        labels.append("amplified")
    elif all(ga > acc + TOLERANCE and gd < drop - TOLERANCE for acc, drop in pairs):
        labels.append("reduced")
    else:
        labels.append("answers no worse and no better than a baseline")
    if kind != "ontology":
        labels.append("not flagged at commit (well-formed)")
    if walks and out["at_risk_marked"]:
        labels.append(f"contained after the reveal ({out['at_risk_marked']} marked at risk)")
    elif walks:
        labels.append("reveal walked; nothing downstream to mark")
    out["verdict"] = labels
    return out


def _headline(workload: dict[str, Any], note: str = "") -> list[dict[str, Any]]:
    """Retention, horizon ratio and tokens-per-probe ratio of one workload (default
    constitution), each against its target."""
    name, sets = workload["params"]["name"], workload["params"]["sets"]
    cmp = workload["comparisons"]["governed-default"]
    g = workload["systems"]["governed-default"]
    retention = g["retention_ratio_state_final"]
    ratio = cmp["horizon"]["ratio_vs_transcript"]
    tokens = cmp["tokens_per_probe_ratio_vs_transcript"]
    acc = cmp["accuracy_overall"]
    return [
        {
            "metric": f"triangle_retention_ratio_{name}_{sets}_sets",
            "value": retention,
            "unit": "ratio (writer state tokens committed, drafts excluded / resident tokens; "
            f"the engine's own counters give {_fmt(g['retention_ratio_final'])}){note}",
            "target": ">= 10",
            "met": retention is not None and retention >= 10,
        },
        {
            "metric": f"triangle_useful_horizon_ratio_vs_transcript_{name}",
            "value": ratio,
            "unit": "ratio"
            + (
                " (lower bound: governed never fell below)"
                if cmp["horizon"]["governed_censored"]
                else ""
            )
            + note,
            "target": ">= 5",
            "met": ratio is not None and ratio >= 5,
        },
        {
            "metric": f"triangle_tokens_per_probe_ratio_vs_transcript_{name}",
            "value": tokens,
            "unit": f"ratio (governed accuracy {_fmt(acc['governed'])}, transcript "
            f"{_fmt(acc['transcript'])}){note}",
            "target": "<= 0.2 at equal or better accuracy",
            "met": tokens is not None and tokens <= 0.2 and acc["governed"] >= acc["transcript"],
        },
    ]


def targets(workloads: list[dict[str, Any]], params: RunParams) -> list[dict[str, Any]]:
    """The issue's targets under the default constitution: retention, horizon and tokens on
    ``medium`` (and the same three on ``medium-all-declared``, a sensitivity twin), accuracy at
    every checkpoint of every workload (and of the standard ones but live-large), the halt rate
    on every standard workload, identical streams."""
    by_name = {w["params"]["name"]: w for w in workloads}
    medium = by_name.get("medium") or workloads[0]
    out = _headline(medium)
    twin = by_name.get("medium-all-declared")
    if twin is not None:
        out += _headline(twin, "; sensitivity twin of medium, every revision declared")
    met_all = all(
        w["comparisons"]["governed-default"]["checkpoints_at_or_above_both"]
        == w["comparisons"]["governed-default"]["checkpoints"]
        for w in workloads
    )
    met = sum(
        w["comparisons"]["governed-default"]["checkpoints_at_or_above_both"] for w in workloads
    )
    total = sum(w["comparisons"]["governed-default"]["checkpoints"] for w in workloads)
    out.append(
        {
            "metric": "triangle_checkpoints_accuracy_at_or_above_both_baselines",
            "value": met / max(1, total),
            "unit": f"share of checkpoints, all workloads, stress cases included ({met}/{total})",
            "target": "= 1.0",
            "met": met_all,
        }
    )
    standard = [w for w in workloads if w["params"]["standard"]]
    # The scope: the careful writer's workloads, live-large excepted (its needed state
    # exceeds the budget: governance cannot help there, and the figure above shows it); the
    # stress cases (unrooted, over-declaration) are in the figure above.
    scoped = [w for w in standard if w["params"]["name"] != "live-large"]
    scoped_met = sum(
        w["comparisons"]["governed-default"]["checkpoints_at_or_above_both"] for w in scoped
    )
    scoped_total = sum(w["comparisons"]["governed-default"]["checkpoints"] for w in scoped)
    out.append(
        {
            "metric": "triangle_checkpoints_accuracy_at_or_above_both_baselines_standard",
            "value": scoped_met / max(1, scoped_total),
            "unit": "share of checkpoints, standard workloads but live-large "
            f"({scoped_met}/{scoped_total}: "
            + ", ".join(w["params"]["name"] for w in scoped)
            + ")",
            "target": "= 1.0",
            "met": scoped_met == scoped_total,
        }
    )
    rates = {
        w["params"]["name"]: w["systems"]["governed-default"]["finish"]["halt_rate"]
        for w in standard
    }
    worst = max(rates.values()) if rates else 0.0
    out.append(
        {
            "metric": "triangle_halt_rate_default_constitution_worst_standard_workload",
            "value": worst,
            "unit": "halts raised / sets decided ("
            + ", ".join(f"{k} {v:.1%}" for k, v in rates.items())
            + ")",
            "target": "< 0.05",
            "met": worst < 0.05,
        }
    )
    out += _over_declaration(by_name)
    identical = all(
        c["streams_identical"] and c["probes_identical"]
        for w in workloads
        for c in w["comparisons"].values()
    )
    out.append(
        {
            "metric": "triangle_event_streams_byte_identical",
            "value": 1.0 if identical else 0.0,
            "unit": "bool",
            "target": "= 1",
            "met": identical,
        }
    )
    return out


def _over_declaration(by_name: dict[str, Any]) -> list[dict[str, Any]]:
    """The over-declaring writer's window at its last checkpoint against its careful twin's (the
    same seed and bodies, declared carefully): retention inflation, measured on the same stream."""
    over, careful = by_name.get("over-declaration"), by_name.get("over-declaration-careful")
    if over is None or careful is None:
        return []
    a = over["systems"]["governed-default"]["checkpoints"][-1]["resident_tokens"]
    b = careful["systems"]["governed-default"]["checkpoints"][-1]["resident_tokens"]
    ratio = a / b if b else None
    return [
        {
            "metric": "triangle_over_declaration_resident_tokens_vs_careful_twin",
            "value": ratio,
            "unit": f"ratio (over-declaring writer {a} tokens, careful writer, same seed, {b})",
            "target": "<= 1",
            "met": ratio is not None and ratio <= 1.0,
        }
    ]


def aggregate_errors(workloads: list[dict[str, Any]]) -> dict[str, Any]:
    """Per error kind, over every workload: probes touched and accuracy on them per system (the
    default constitution), the same systems' accuracy on untouched probes, at-risk marks."""
    out: dict[str, Any] = {}
    names = ("governed-default", "transcript", "retrieval")
    for kind in ERROR_KINDS:
        row: dict[str, Any] = {"probes": 0, "at_risk_marked": 0, "walks": 0}
        for name in names:
            correct = touched = 0.0
            for w in workloads:
                e = w["systems"][name]["errors"][kind]
                if e["accuracy"] is not None:
                    correct += e["accuracy"] * e["probes"]
                    touched += e["probes"]
            row[f"{name}_accuracy"] = correct / touched if touched else None
            row["probes"] = int(touched)
        for w in workloads:
            v = w["comparisons"]["governed-default"]["errors"][kind]
            row["at_risk_marked"] += v["at_risk_marked"]
            row["walks"] += v["walks"]
        row["injected"] = sum(1 for w in workloads for i in w["injected"] if i["kind"] == kind)
        out[kind] = row
    return out
