#!/usr/bin/env python3
"""Summarises the figures a stage appends to $REMOTION_FIGURES (one JSON object per run) over
repeated runs: n, min, median, max of each, and for a figure with a goal, in how many runs it
was met. scripts/bench-web-transport.sh loss N uses it; docs/BENCHMARKS.md, "Figures that left
the tests", records its output.
  figures_summary.py FILE [--goals web-transport|none]"""
import json, statistics, sys

# figure → (goal, what it is): the goals the tests no longer assert.
GOALS = {
    "web-transport": {
        "dc_p99_ratio": (1.5, "data channel: p99 gap at 5% loss ÷ UDP's (×)"),
        "dc_outage_first_ms": (100, "data channel: first move after a 1 s outage (ms)"),
        "lane_p99_ratio": (2.0, "WebSocket + lane: p99 gap at 5% loss ÷ UDP's (×)"),
        "lane_outage_first_ms": (200, "WebSocket + lane: first move after a 1 s outage (ms)"),
        "dc_revoke_s": (1.0, "data channel: dropped after a revocation (s)"),
    },
    "none": {},
}


def main():
    path = sys.argv[1]
    goals = GOALS[sys.argv[sys.argv.index("--goals") + 1] if "--goals" in sys.argv else "web-transport"]
    runs = [json.loads(line) for line in open(path) if line.strip()]
    keys = list(goals) + sorted({k for r in runs for k in r} - set(goals) - {"checks", "checks_passed"})
    print("%d runs; every check of the stage passed in %d of them" % (
        len(runs), sum(r.get("checks_passed") == r.get("checks") for r in runs)))
    print("| figure | n | min | median | max | goal | met |")
    print("|---|---|---|---|---|---|---|")
    for k in keys:
        values = [r[k] for r in runs if isinstance(r.get(k), (int, float))]
        if not values:
            continue
        goal, what = goals.get(k, (None, k))
        met = "%d of %d" % (sum(v <= goal for v in values), len(values)) if goal is not None else ""
        print("| %s | %d | %.2f | %.2f | %.2f | %s | %s |" % (
            what if goal is not None else k, len(values), min(values), statistics.median(values), max(values),
            "≤ %g" % goal if goal is not None else "", met))


if __name__ == "__main__":
    main()
