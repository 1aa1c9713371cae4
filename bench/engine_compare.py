"""Estoc: the pure engines of two commits, side by side in one run (``make engine-compare``).

    .venv/bin/python bench/engine_compare.py BASE [HEAD] [--rounds 5] [--repeat 9]

What one request costs the pure package — parse, resolve, scene and récit, the JSON result
(``rulesets.core.request.resolve`` and ``result_data``) — for every worked example of every
ruleset, at two commits. Each commit is checked out with ``git worktree add --detach`` (``HEAD``
defaults to ``WORKTREE``: this working tree as it is), and each round runs one subprocess per
commit, in ABBA order, that imports that checkout's code only and times each ruleset's examples
(the best of ``--repeat`` passes, after a warm-up pass). The median over the rounds of each
ruleset's HEAD/BASE ratio is printed as one JSON document; each round's own ratio shows the noise
of the shared machine. Issue 15 measured the cost of its French toolkit with it
(``docs/performance.md``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The timing child: runs inside the checkout, prints {slug: seconds per request}.
CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from rulesets.core import registry
from rulesets.core.request import resolve, result_data
repeat = int(sys.argv[2])
out = {}
for slug, ruleset in sorted(registry.load_all().items()):
    cases = [ex.request for ex in ruleset.examples()]
    def one_pass():
        start = time.perf_counter()
        for request in cases:
            try:
                result_data(resolve(ruleset, request))
            except Exception:  # an example another commit's schema refuses costs its refusal
                pass
        return (time.perf_counter() - start) / len(cases)
    one_pass()
    out[slug] = min(one_pass() for _ in range(repeat))
print(json.dumps(out))
"""


def _checkout(ref: str, where: Path) -> Path:
    if ref == "WORKTREE":
        return ROOT
    target = where / ref.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(target), ref], check=True, capture_output=True
    )
    return target


def _time(checkout: Path, repeat: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(checkout), str(repeat)],
        check=True,
        capture_output=True,
        text=True,
        cwd=checkout,
    )
    timings: dict[str, float] = json.loads(done.stdout)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("head", nargs="?", default="WORKTREE")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="estoc-engines-") as tmp:
        checkouts = {"base": _checkout(args.base, Path(tmp)), "head": _checkout(args.head, Path(tmp))}
        try:
            runs: dict[str, list[dict[str, float]]] = {"base": [], "head": []}
            for i in range(args.rounds):
                order = ("base", "head") if i % 2 == 0 else ("head", "base")
                for side in order:
                    runs[side].append(_time(checkouts[side], args.repeat))
        finally:
            for path in checkouts.values():
                if path != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False)
    per_ruleset: dict[str, object] = {}
    for slug in sorted(runs["base"][0]):
        ratios = [h[slug] / b[slug] for b, h in zip(runs["base"], runs["head"], strict=True) if slug in h]
        per_ruleset[slug] = {
            "base_ms": round(statistics.median(r[slug] for r in runs["base"]) * 1000, 3),
            "head_ms": round(statistics.median(r[slug] for r in runs["head"] if slug in r) * 1000, 3),
            "ratio": round(statistics.median(ratios), 2),
            "ratios": [round(r, 2) for r in ratios],
        }
    report = {"base": args.base, "head": args.head, "rounds": args.rounds, "rulesets": per_ruleset}
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
