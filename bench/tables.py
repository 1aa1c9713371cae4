"""Markdown tables of a ``make bench`` report, for docs/performance.md.

    python bench/tables.py artifacts/bench/report.json [--before BEFORE.json]

``--before``: a report of the same harness run on another commit (``BENCH_ONLY=latency`` in a git
worktree of that commit, with this ``bench/`` copied in); its ratios are shown beside.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

VIEWS = ("htmx resolve", "live update", "permalink", "first visit")
NAMES = {
    "encore": "enCORE",
    "nephilim": "Nephilim",
    "feerie": "Féerie",
    "feerie-action": "Féerie Action",
    "quadrature": "Quadrature",
    "aventuriers": "Aventuriers",
}


def fr(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


def latency_table(report: dict[str, Any], before: dict[str, Any] | None) -> str:
    pages = report["latency"]["pages"]
    old = before["latency"]["pages"] if before else {}
    head = "| page | " + " | ".join(VIEWS) + " | API resolve ÷ floor |"
    lines = [head, "|---|" + "---:|" * (len(VIEWS) + 1)]
    for slug, rows in pages.items():
        cells = []
        for view in (*VIEWS, "API resolve"):
            row = rows[view]
            ratio = row["ratio_to_floor"] if view == "API resolve" else row["ratio_to_bare"]
            text = f"{fr(row['cpu_median_ms'])} ms, **{fr(ratio, 1)}×**"
            if slug in old and view in old[slug]:
                was = old[slug][view]
                was_ratio = was["ratio_to_floor"] if view == "API resolve" else was["ratio_to_bare"]
                text = f"{fr(was_ratio, 1)}× → {text}"
            cells.append(text)
        lines.append(f"| {NAMES.get(slug, slug)} | " + " | ".join(cells) + " |")
    bare = report["latency"]["bare view"]
    lines.append("")
    lines.append(f"Bare view: {fr(bare['cpu_median_ms'], 3)} ms of CPU (median).")
    return "\n".join(lines)


def verdicts_table(report: dict[str, Any]) -> str:
    lines = ["| target | measured | verdict |", "|---|---|---|"]
    for v in report.get("verdicts", []):
        measured = v["measured"]
        if isinstance(measured, dict):
            measured = json.dumps(measured, ensure_ascii=False)[:160]
        over = f" (over: {', '.join(NAMES.get(s, s) for s in v['over'])})" if v.get("over") else ""
        verdict = {True: "**met**", False: "**missed**", None: "not measured"}[v["met"]]
        lines.append(f"| {v['target']} | {measured}{over} | {verdict} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", type=Path)
    parser.add_argument("--before", type=Path)
    args = parser.parse_args()
    report = json.loads(args.report.read_text())
    before = json.loads(args.before.read_text()) if args.before else None
    print(verdicts_table(report))
    print()
    if "latency" in report:
        print(latency_table(report, before))


if __name__ == "__main__":
    main()
