"""The report: JSON (everything), Markdown (the tables), PNG plots (matplotlib)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["findings", "plot", "write_json", "write_markdown"]

COLORS = {
    "transcript": "#d62728",
    "retrieval": "#1f77b4",
    "governed-default": "#2ca02c",
    "governed-operator": "#9467bd",
}


def write_json(report: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(report, indent=1, sort_keys=True, default=str) + "\n")


def plot(report: dict[str, Any], out_dir: Path) -> list[str]:
    """Per workload, one PNG with two panels: resident tokens over seq and accuracy over seq,
    every system on the same axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    budget = report["params"]["budget_tokens"]
    threshold = report["params"]["horizon_threshold"]
    for w in report["workloads"]:
        name = w["params"]["name"]
        fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2))
        for system, s in w["systems"].items():
            seqs = [c["seq"] for c in s["checkpoints"]]
            resident = [c["resident_tokens"] or 0 for c in s["checkpoints"]]
            label = system if system != "retrieval" else "retrieval (tokens per probe)"
            left.plot(seqs, resident, marker=".", color=COLORS.get(system), label=label)
            right.plot(
                [a["seq"] for a in s["accuracy"]],
                [a["accuracy"] for a in s["accuracy"]],
                marker=".",
                color=COLORS.get(system),
                label=system,
            )
        needed = w["systems"]["transcript"]["checkpoints"]
        left.plot(
            [c["seq"] for c in needed],
            [c["needed_tokens"] for c in needed],
            "k:",
            label="actually-needed state (truth)",
        )
        left.axhline(budget, color="grey", linestyle="--", linewidth=0.8, label=f"B = {budget}")
        left.set_title(f"{name}: resident tokens over seq")
        left.set_xlabel("event seq (sets)")
        left.set_ylabel("tokens")
        left.legend(fontsize=7)
        right.axhline(
            threshold,
            color="grey",
            linestyle="--",
            linewidth=0.8,
            label=f"threshold {threshold:.0%}",
        )
        right.set_ylim(0, 1.02)
        right.set_title(f"{name}: probe accuracy over seq")
        right.set_xlabel("event seq (sets)")
        right.set_ylabel("accuracy")
        right.legend(fontsize=7)
        fig.tight_layout()
        path = out_dir / f"triangle-{name}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path.name)
    return written


def _f(value: Any, digits: int = 2) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _pct(value: Any) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def write_markdown(report: dict[str, Any], path: Path, plots: list[str]) -> None:
    p = report["params"]
    lines = [
        f"# Benchmark triangle: {report['run']} run",
        "",
        f"- command: `{report['command']}`",
        f"- commit: `{report['commit']}`{' (with uncommitted changes)' if report['dirty'] else ''}",
        f"- database: {report['database']}",
        f"- wall time: {report['seconds']:.0f} s on {report['cpus']} CPUs "
        f"(load average at start {report['load_start']}, at end {report['load_end']})",
        f"- budget B = {p['budget_tokens']} tokens for every system, tokenizer and embedder: "
        f"{report['model']}",
        f"- checkpoints every {p['checkpoint_every']} sets (first at {p['first_checkpoint']}), "
        f"czar every {p['czar_every']} sets, useful-horizon threshold "
        f"{p['horizon_threshold']:.0%}",
        "- design, reader rules and metric definitions: `benchmarks/triangle/DESIGN.md`",
        "",
        "## Targets",
        "",
        "| metric | value | target | met |",
        "|---|---|---|---|",
    ]
    for t in report["targets"]:
        lines.append(
            f"| {t['metric']} | {_f(t['value'], 3)} {t['unit']} | {t['target']} | "
            f"{'**met**' if t['met'] else '**not met**'} |"
        )
    lines += ["", "## What this run shows about the engine (computed from the run)", ""]
    lines += [f"- {line}" for line in findings(report)]
    lines += [
        "",
        "## Injected errors, all workloads (default constitution)",
        "",
        "| error kind | injected | probes touched | governed | transcript | retrieval | "
        "reveal walks | marked at risk |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for kind, e in report.get("errors_all_workloads", {}).items():
        lines.append(
            f"| {kind} | {e['injected']} | {e['probes']} | {_pct(e['governed-default_accuracy'])} "
            f"| {_pct(e['transcript_accuracy'])} | {_pct(e['retrieval_accuracy'])} | "
            f"{e['walks']} | {e['at_risk_marked']} |"
        )
    lines += ["", "## Workloads", ""]
    lines += [
        "| workload | sets | decision keys | churn | writer | needed state at end (tokens) |",
        "|---|---|---|---|---|---|",
    ]
    for w in report["workloads"]:
        wp = w["params"]
        needed = w["systems"]["transcript"]["checkpoints"][-1]["needed_tokens"]
        lines.append(
            f"| {wp['name']} | {wp['sets']} | {wp['decision_keys']} | {wp['churn']} | "
            f"{wp['writer']} | {needed} |"
        )
    for w in report["workloads"]:
        lines += _workload_md(w, report)
        name = w["params"]["name"]
        if f"triangle-{name}.png" in plots:
            lines += ["", f"![{name}](triangle-{name}.png)", ""]
    lines += [
        "",
        "## Parameters (as printed by the run)",
        "",
        "```json",
        json.dumps(p, indent=1, sort_keys=True),
        "```",
        "",
    ]
    path.write_text("\n".join(lines) + "\n")


def _workload_md(w: dict[str, Any], report: dict[str, Any]) -> list[str]:
    name = w["params"]["name"]
    out = ["", f"### {name}", ""]
    out += [
        "| system | accuracy | horizon (sets) | tokens/probe | retention ratio (state / "
        "engine) | resident tokens (end) | recalls | rehydrated tokens | stale-state rejection | "
        "false retirements (end / max) | false resurrections (mean) | halt rate | s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for system, s in w["systems"].items():
        horizon = (
            f"{'>= ' if s['useful_horizon_censored'] else ''}{s['useful_horizon']} "
            f"({s['checkpoints_at_or_above_threshold']}/{len(s['accuracy'])} checkpoints >= "
            f"{report['params']['horizon_threshold']:.0%})"
        )
        finish = s["finish"]
        halt = _pct(finish.get("halt_rate")) if "halt_rate" in finish else "n/a"
        out.append(
            f"| {system} | {_pct(s['accuracy_overall'])} | {horizon} | "
            f"{_f(s['tokens_per_probe'], 0)} | {_f(s['retention_ratio_state_final'], 1)} / "
            f"{_f(s['retention_ratio_final'], 1)} | "
            f"{_f(s['resident_tokens_final'], 0)} | {s['recalls']} | {s['rehydrated_tokens']} | "
            f"{_pct(s['stale_state_rejection'])} | {_f(s['false_retirements_final'])} / "
            f"{_f(s['false_retirements_max'])} | {_f(s['false_resurrections_mean'], 1)} | "
            f"{halt} | {s['seconds']} |"
        )
    types = sorted({t for s in w["systems"].values() for t in s["accuracy_by_type"]})
    out += [
        "",
        "Accuracy by probe type:",
        "",
        "| system | " + " | ".join(types) + " |",
        "|---|" + "---|" * len(types),
    ]
    for system, s in w["systems"].items():
        out.append(
            f"| {system} | " + " | ".join(_pct(s["accuracy_by_type"].get(t)) for t in types) + " |"
        )
    seqs = [a["seq"] for a in w["systems"]["transcript"]["accuracy"]]
    out += [
        "",
        "Accuracy at each checkpoint:",
        "",
        "| system | " + " | ".join(str(s) for s in seqs) + " |",
        "|---|" + "---|" * len(seqs),
    ]
    for system, s in w["systems"].items():
        out.append(
            f"| {system} | "
            + " | ".join(f"{100 * a['accuracy']:.0f}" for a in s["accuracy"])
            + " |"
        )
    for governed, cmp in w["comparisons"].items():
        out += [
            "",
            f"**{governed}** against the baselines: streams byte-identical "
            f"{_f(cmp['streams_identical'])} (sha256 {cmp['stream_sha256']['transcript'][:16]}"
            f"…), probes identical {_f(cmp['probes_identical'])}; checkpoints at or above "
            f"both baselines {cmp['checkpoints_at_or_above_both']}/{cmp['checkpoints']}; "
            f"horizon ratio vs transcript {_f(cmp['horizon']['ratio_vs_transcript'])}"
            f"{' (lower bound)' if cmp['horizon']['governed_censored'] else ''}; tokens per "
            f"probe vs transcript {_f(cmp['tokens_per_probe_ratio_vs_transcript'], 3)}.",
            "",
        ]
        out += [
            "| error kind | probes touched | governed acc (drop) | transcript acc (drop) | "
            "retrieval acc (drop) | walks / at-risk / flagged | verdict |",
            "|---|---|---|---|---|---|---|",
        ]
        for kind, v in cmp["errors"].items():
            out.append(
                f"| {kind} | {v['probes']} | {_pct(v['governed_accuracy'])} "
                f"({_f(v['governed_drop'])}) | {_pct(v['transcript_accuracy'])} "
                f"({_f(v['transcript_drop'])}) | {_pct(v['retrieval_accuracy'])} "
                f"({_f(v['retrieval_drop'])}) | {v['walks']} / {v['at_risk_marked']} / "
                f"{v['flagged_marked']} | {', '.join(v['verdict'])} |"
            )
    if w.get("operator_notes"):
        out += [
            "",
            "Operator constitution (derived from the default run's report, ratified "
            "through `Boundary.propose_constitution`): " + "; ".join(w["operator_notes"]),
        ]
    out += ["", "Governed engine details:", ""]
    for system, s in w["systems"].items():
        if not system.startswith("governed"):
            continue
        f = s["finish"]
        out.append(
            f"- {system}: sets decided {f['sets_decided']} {f['outcomes']}; halts "
            f"{f['halts_raised']} {f['halt_categories']} by set kind {f['halts_by_set_kind']}; "
            f"engine-reported halt rate {_pct(f['engine_stats']['halt_rate_reported'])} "
            f"(the engine's stats: halts raised / sets decided); rejected events "
            f"{f['rejected_event_count']} "
            f"{f['rejections']}; operator actions {f['operator_actions']}; recalls "
            f"{f['recalls']}; czar {f['czar']}; audit {f['audit']}; ontology {f['ontology']}"
        )
    for system, s in w["systems"].items():
        if not system.startswith("governed"):
            continue
        last = s["checkpoints"][-1] if s["checkpoints"] else {}
        if last.get("resident_breakdown"):
            parts = ", ".join(f"{k} {v}" for k, v in last["resident_breakdown"].items())
            out.append(f"- {system} window at seq {last['seq']} by truth (tokens): {parts}")
    info = w["mandatory"]
    od = info.get("omitted_dependency")
    if od and "revealed_at" in od:
        out += [
            "",
            f"Omitted dependency: {od['eid']} (derived from {od['parent']}, neither said "
            f"nor declared) at seq {od['seq']}, its parent revised at seq "
            f"{od.get('parent_revised_at')}, revealed at seq {od['revealed_at']} "
            f"({od['sets_between']} sets later); true blast radius "
            f"{len(od['true_blast_radius'])} entries.",
            "",
            "| system | found | false positives | recall | operator effort |",
            "|---|---|---|---|---|",
        ]
        for system, s in w["systems"].items():
            b = s["blast_radius"]
            if not b:
                continue
            out.append(
                f"| {system} | {b.get('found')}/{b.get('truth')} | "
                f"{b.get('false_positives')} | {_pct(b.get('recall'))} | "
                f"{b.get('effort_items')} {b.get('effort_unit')} |"
            )
    return out


def findings(report: dict[str, Any]) -> list[str]:
    """Observations computed from the run (no judgment added): where the governed window's
    tokens go, what the gate halted, how far the boundary's seq drifts from the writer's."""
    out = []
    by_name = {w["params"]["name"]: w for w in report["workloads"]}
    for w in report["workloads"]:
        g = w["systems"].get("governed-default")
        if not g or not g["checkpoints"]:
            continue
        last = g["checkpoints"][-1]
        parts = last.get("resident_breakdown") or {}
        total = sum(parts.values()) or 1
        interfaces = sum(v for k, v in parts.items() if k.endswith("[interface]"))
        needed = parts.get("needed", 0) + parts.get("needed [interface]", 0)
        copies = parts.get("recall copies", 0)
        finish = g["finish"]
        out.append(
            f"{w['params']['name']}: at seq {last['seq']} the governed window holds "
            f"{total} tokens, {needed} of them actually needed ({needed / total:.0%}); "
            f"interfaces {interfaces} ({interfaces / total:.0%}; the czar's last run skipped "
            f"{finish['czar']['skipped_own_last_run']} entries it wrote itself), recall copies "
            f"{copies}, obsolete entries {parts.get('obsolete (stale)', 0)}; boundary seq "
            f"{last.get('boundary_seq')} for {last['seq']} writer sets (leases count boundary "
            f"seq); halts {finish['halt_categories'] or 'none'}; invalidation walks moved "
            f"{finish['walk_moved_from_history']} superseded/retired entries back to at_risk."
        )
    medium, declared = by_name.get("medium"), by_name.get("medium-all-declared")
    if medium and declared:
        a = medium["systems"]["governed-default"]["checkpoints"][-1]["resident_tokens"]
        b = declared["systems"]["governed-default"]["checkpoints"][-1]["resident_tokens"]
        out.append(
            f"Undeclared revisions (10% of revisions in `medium`, none in "
            f"`medium-all-declared`, same seed): governed window {a} versus {b} tokens at the "
            "end; their predecessors stay live and resident with everything they hold."
        )
    over, careful = by_name.get("over-declaration"), by_name.get("over-declaration-careful")
    if over and careful:
        a = over["systems"]["governed-default"]["checkpoints"][-1]["resident_tokens"]
        b = careful["systems"]["governed-default"]["checkpoints"][-1]["resident_tokens"]
        out.append(
            f"Over-declaration (`over-declaration` against its careful twin "
            f"`over-declaration-careful`: the same seed and bodies, only the declarations "
            f"differ): governed window {a} versus {b} tokens at the end."
        )
    return out
