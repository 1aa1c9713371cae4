"""User-perceived speed: ``make perceived`` (or ``python bench/perceived.py``). Figures for docs/reliability.md.

Target (issue 18): click on « Résoudre » → result painted, **p95 ≤ 100 ms on every one of the six
calculator pages, on a phone (390×844)**.

Playwright drives Debian's Chromium (headless) against Estoc under gunicorn (the Dockerfile's
options: 4 gthread workers, each warmed up at start; PostgreSQL ``estoc_perceived``, Redis db 11: the start
code of the load test, ``bench/server.py``). The browser is a phone by default (``--device
phone``: 390×844, device scale factor 3, ``is_mobile``, touch: « Résoudre » is tapped), or a
desktop (``--device desktop``: 1366×900, clicked), or both (``--device phone,desktop``).

For each page (the six by default: ``/encore/``, ``/nephilim/``, ``/feerie/``, ``/feerie/action/``,
``/quadrature/``, ``/aventuriers/``): open it, tap « Résoudre » (``#resolve-button``, in the action
bar ``#live``, tied to the form by ``form="scenario-form"``) 8 times to warm the workers up (their
first clicks are reported apart), then 20 times: type the first die (``#live input.die``, when the
page has dice: one of its faces, read from its title), set a new seed in the form (``#scenario-form [name=seed]``), tap, and measure in
the page, with ``performance.now()`` from the click event (capture phase, before htmx sees it):

* ``dom``: until the new result is in the DOM (a MutationObserver sees ``#result #final code``
  show the new seed: every click changes the result, whatever the page);
* ``painted``: until the frame after that one (two ``requestAnimationFrame``), i.e. the result on
  screen — the figure the target is checked against;
* where that time goes, from the Resource Timing entry of htmx's request and htmx's events:
  ``before_request`` (click → request sent: htmx gathers the form), ``request`` (network and
  server, to the response's last byte), ``after_response`` (response → painted), split into
  ``to_swap`` (response → ``htmx:beforeSwap``), ``swap`` (``beforeSwap`` → ``afterSwap``: the
  HTML parsed and put in place, htmx's history calls included: ``history``, the time spent in
  ``history.replaceState``/``pushState`` for ``HX-Push-Url``) and ``paint`` (``afterSwap`` →
  painted: style, layout, paint, and the wait for the next frame but one);
* ``story_in_view`` (not a target): until the first animation frame at which the top of « Le
  récit » is on screen, above the action bar when it is fixed (``estoc.js`` scrolls it there after settling).

Also reported: whether the service worker controlled the page (its fetch handler sees every
request, POSTs included). Prints a JSON report on stdout (logs on stderr), also written to
``artifacts/perceived/report.json``. ``run()`` returns the same report for ``bench/run.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import server  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
OUT = server.ARTIFACTS / "perceived"
TARGET_MS = 100.0
DATABASE = "estoc_perceived"
REDIS = "redis://127.0.0.1:6379/11"
PAGES = ("/encore/", "/nephilim/", "/feerie/", "/feerie/action/", "/quadrature/", "/aventuriers/")
DEVICES: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1366, "height": 900}, "device_scale_factor": 1},
}
GUNICORN_OPTIONS: tuple[str, ...] = ()  # the Dockerfile's command adds none to bench/server.py's

# Installed once per page load, before any click: the click (capture phase, so before htmx sees it)
# starts the clock; the first mutation that shows the expected seed in #result stops it.
PROBE = """
() => {
  const probe = {
    t0: null, dom: null, painted: null, seed: null, in_view: null, before_swap: null, after_swap: null, history: 0,
  };
  window.__probe = probe;
  // the time spent in history.pushState / replaceState (htmx calls both for HX-Push-Url)
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name].bind(history);
    history[name] = (...args) => {
      const start = performance.now();
      try { return original(...args); } finally { if (probe.t0 !== null) probe.history += performance.now() - start; }
    };
  }
  document.addEventListener("click", (event) => {
    if (event.target.closest("#resolve-button") && probe.t0 === null) probe.t0 = performance.now();
  }, true);
  document.addEventListener("htmx:beforeSwap", () => {
    if (probe.t0 !== null && probe.before_swap === null) probe.before_swap = performance.now();
  });
  document.addEventListener("htmx:afterSwap", () => {
    if (probe.t0 !== null && probe.after_swap === null) probe.after_swap = performance.now();
  });
  // the first frame where the story's top is on screen (above the action bar when it is fixed)
  const watchStory = (deadline) => {
    const story = document.getElementById("story");
    const bar = document.getElementById("live");
    const fixed = bar && getComputedStyle(bar).position === "fixed";
    const bottom = fixed ? bar.getBoundingClientRect().top : innerHeight;
    if (story) {
      const top = story.getBoundingClientRect().top;
      if (top >= 0 && top < bottom) { probe.in_view = performance.now(); return; }
    }
    if (performance.now() < deadline) requestAnimationFrame(() => watchStory(deadline));
  };
  new MutationObserver(() => {
    if (probe.t0 === null || probe.dom !== null) return;
    const code = document.querySelector("#result #final code");
    if (code && code.textContent.trim() === probe.seed) {
      probe.dom = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { probe.painted = performance.now(); }));
      requestAnimationFrame(() => watchStory(performance.now() + 3000));
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}
"""

ARM = """
(seed) => {
  Object.assign(window.__probe, {
    t0: null, dom: null, painted: null, seed: String(seed), in_view: null, before_swap: null, after_swap: null,
    history: 0,
  });
  performance.clearResourceTimings();
  document.querySelector("#scenario-form [name=seed]").value = String(seed);
}
"""

# the htmx request (XHR) of that click, from the Resource Timing API: when it left, when it was back
READ = """
() => {
  const probe = window.__probe;
  const xhr = performance.getEntriesByType("resource").filter((e) => e.initiatorType === "xmlhttprequest").pop();
  return { ...probe, start: xhr ? xhr.startTime : null, end: xhr ? xhr.responseEnd : null };
}
"""

# story_in_view may come up to 3 s after the result (a smooth scroll); wait for it or its deadline
STORY_SETTLED = "() => window.__probe.in_view !== null || performance.now() > window.__probe.painted + 3000"

PARTS = ("dom", "before_request", "request", "after_response", "to_swap", "swap", "history", "paint", "story_in_view")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (p95 of 20 clicks = the 19th fastest)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def stats(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(values), 1),
        "p95_ms": round(percentile(values, 95), 1),
        "max_ms": round(max(values), 1),
        "min_ms": round(min(values), 1),
    }


def die_faces(page: Any) -> list[int]:
    """The faces of the page's first die, read from its title (« Faces : 2, 3, 4, 5. Vide : … »);
    none when the page has no die (the server rolls everything then)."""
    dice = page.locator("#live input.die")
    if not dice.count():
        return []
    title = dice.first.get_attribute("title") or ""
    listed = re.search(r"Faces\s*:\s*(.*?)\.(?:\s|$)", title)
    return [int(m) for m in re.findall(r"(?:^|,)\s*(-?\d+)", listed.group(1))] if listed else []


def click_and_measure(page: Any, seed: int, die_value: int | None, touch: bool) -> dict[str, float]:
    """Type the first die (a valid face) and a new seed, tap « Résoudre », read the probe."""
    if die_value is not None:
        page.locator("#live input.die").first.fill(str(die_value))
    page.evaluate(ARM, seed)
    if touch:
        page.tap("#resolve-button")
    else:
        page.click("#resolve-button")
    try:
        page.wait_for_function("() => window.__probe.painted !== null", timeout=15000)
    except Exception as exc:
        raise SystemExit(f"{page.url}: no result with seed {seed} within 15 s (an invalid die, a 422?)") from exc
    page.wait_for_function(STORY_SETTLED, timeout=15000)
    p = page.evaluate(READ)
    t0 = p["t0"]
    out = {"dom": p["dom"] - t0, "painted": p["painted"] - t0}
    if p["start"] is not None:
        out["before_request"] = p["start"] - t0  # htmx gathers the form and sends it
        out["request"] = p["end"] - p["start"]  # network + server, until the last byte
        out["after_response"] = p["painted"] - p["end"]  # swap, settle, layout, paint
        if p["before_swap"] is not None and p["after_swap"] is not None:
            out["to_swap"] = p["before_swap"] - p["end"]
            out["swap"] = p["after_swap"] - p["before_swap"]
            out["paint"] = p["painted"] - p["after_swap"]
            out["history"] = p["history"]  # within swap: htmx's replaceState + pushState of HX-Push-Url
    if p["in_view"] is not None:
        out["story_in_view"] = p["in_view"] - t0
    return out


def summarise(samples: list[dict[str, float]]) -> dict[str, Any]:
    painted = [s["painted"] for s in samples]
    p95 = percentile(painted, 95)
    return {
        "clicks": len(samples),
        "painted": stats(painted),
        **{part: stats([s[part] for s in samples]) for part in PARTS if all(part in s for s in samples)},
        "painted_ms": [round(v, 1) for v in painted],
        "target_met": p95 <= TARGET_MS,
        "verdict": "met" if p95 <= TARGET_MS else "not met",
    }


def measure(base: str, paths: list[str], clicks: int, warmup: int, device: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    options = DEVICES[device]
    touch = bool(options.get("has_touch"))
    results: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            context = browser.new_context(**options)
            page = context.new_page()
            for n, path in enumerate(paths):
                page.goto(base + path, wait_until="load")
                page.evaluate(PROBE)
                faces = die_faces(page)

                def face(i: int, faces: list[int] = faces) -> int | None:
                    return faces[i % len(faces)] if faces else None

                cold = [
                    click_and_measure(page, 900_000 + 1000 * n + i, face(i), touch)["painted"] for i in range(warmup)
                ]
                samples = [click_and_measure(page, 100_000 + 1000 * n + i, face(i + 3), touch) for i in range(clicks)]
                controlled = page.evaluate("() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
                results[path] = summarise(samples) | {
                    "warmup_painted_ms": [round(v, 1) for v in cold],
                    "first_die_faces": faces,
                    "service_worker_controlled": controlled,
                }
                server.log(
                    f"{device} {path}: painted p50 {results[path]['painted']['p50_ms']} ms, "
                    f"p95 {results[path]['painted']['p95_ms']} ms ({results[path]['verdict']})"
                )
            context.close()
        finally:
            browser.close()
    return results


def run(
    pages: tuple[str, ...] = PAGES,
    devices: tuple[str, ...] = ("phone",),
    clicks: int = 20,
    warmup: int = 8,
    database: str = DATABASE,
    redis_url: str = REDIS,
) -> dict[str, Any]:
    """Serve Estoc, measure every page on every device; the report (``verdict``: every page met)."""
    unknown = [d for d in devices if d not in DEVICES]
    if unknown:
        raise SystemExit(f"unknown device(s) {unknown}: {', '.join(DEVICES)}")
    started = time.monotonic()
    env = server.server_env(server.ensure_database(database), redis_url)
    server.prepare(env)
    OUT.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "target": f"click on « Résoudre » → result painted, p95 ≤ {TARGET_MS:g} ms on every page",
        "server": (
            "gunicorn (Dockerfile's options, 4 gthread workers warmed up at start), PostgreSQL, Redis cache, DEBUG off, "
            "127.0.0.1"
        ),
        "browser": f"{CHROMIUM} headless (Playwright)",
        "devices": {d: DEVICES[d] for d in devices},
        "loadavg_before": [round(v, 2) for v in os.getloadavg()],
    }
    with server.gunicorn(env, log_path=OUT / "gunicorn.log", extra=GUNICORN_OPTIONS) as base:
        report["results"] = {device: measure(base, list(pages), clicks, warmup, device) for device in devices}
    report["loadavg_after"] = [round(v, 2) for v in os.getloadavg()]
    report["summary"] = {
        device: {
            path: {
                "p50_ms": r["painted"]["p50_ms"],
                "p95_ms": r["painted"]["p95_ms"],
                "verdict": r["verdict"],
            }
            for path, r in by_page.items()
        }
        for device, by_page in report["results"].items()
    }
    # the target is the phone's; a desktop-only run has its own verdict
    judged = "phone" if "phone" in devices else devices[0]
    report["verdict_device"] = judged
    report["verdict"] = "met" if all(r["target_met"] for r in report["results"][judged].values()) else "not met"
    report["seconds"] = round(time.monotonic() - started, 1)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default=DATABASE)
    parser.add_argument("--redis", default=REDIS)
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--device", default="phone", help=f"comma-separated, among {', '.join(DEVICES)}")
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=8, help="clicks not counted (each worker's first hits)")
    args = parser.parse_args()
    report = run(
        pages=tuple(p for p in args.pages.split(",") if p),
        devices=tuple(d for d in args.device.split(",") if d),
        clicks=args.clicks,
        warmup=args.warmup,
        database=args.database,
        redis_url=args.redis,
    )
    text = json.dumps(report, indent=2, ensure_ascii=False)
    (OUT / "report.json").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
