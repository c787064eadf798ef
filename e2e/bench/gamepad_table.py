"""Turns scripts/bench-gamepad.sh's result lines into the markdown of docs/BENCHMARKS.md.

A line is scripts/bench.sh's (bench_table.parse reads it) with the phase as its first word:
floor, pointer (the host, pointer only) or pad (the host with a virtual pad per session
written to /dev/null); rounds follow each other in order. The pad phase's stop line also
says "pad sink null (stand-in for /dev/uhid): W reports written, F failed; receipt→report
p50 A µs, p99 B µs".
"""
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_table import parse  # noqa: E402

PAD = re.compile(r"pad sink null \(stand-in for /dev/uhid\): (\d+) reports written, (\d+) failed; "
                 r"receipt→report p50 ([0-9.]+) µs, p99 ([0-9.]+) µs")


def rows(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        r = parse(line)
        m = PAD.search(line)
        r["written"], r["failed"], r["rp50"], r["rp99"] = (
            (int(m.group(1)), int(m.group(2)), float(m.group(3)), float(m.group(4))) if m else (None, None, None, None))
        out.append(r)
    return out


def rounds(all_rows):
    """[{phase: row}] in order: a round ends when a phase comes again."""
    out, current = [], {}
    for r in all_rows:
        if r["mode"] in current:
            out.append(current)
            current = {}
        current[r["mode"]] = r
    if current:
        out.append(current)
    return out


def us(r):
    return None if r is None else r["us"]


def fmt(v, unit=" µs", digits=2):
    return "—" if v is None else f"{v:.{digits}f}{unit}"


def main(path):
    table = rounds(rows(path))
    print("| round | floor (C) | host, pointer | host, pointer + pad | pad adds (pad − pointer) "
          "| pointer above floor | pad adds / pointer | pad adds / (pointer − floor) "
          "| reports written / samples | receipt→report p50 / p99 | one-way p50 / p99, pointer · pad |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    added, ratios, strict = [], [], []
    for i, g in enumerate(table, 1):
        f, p, q = us(g.get("floor")), us(g.get("pointer")), us(g.get("pad"))
        add = q - p if p is not None and q is not None else None
        above = p - f if p is not None and f is not None else None
        ratio = add / p if add is not None and p else None
        sratio = add / above if add is not None and above and above > 0 else None
        pad = g.get("pad")
        written = "—" if not pad or pad["written"] is None else f"{pad['written']:,} / {pad['delivered']:,}"
        rep = "—" if not pad or pad["rp50"] is None else f"{pad['rp50']:.2f} / {pad['rp99']:.2f} µs"

        def lat(r):
            return "—" if not r or r["p50"] is None else f"{r['p50']:.3f}/{r['p99']:.3f} ms"
        print(f"| {i} | {fmt(f)} | {fmt(p)} | {fmt(q)} | {fmt(add)} | {fmt(above)} | {fmt(ratio, '', 2)} "
              f"| {fmt(sratio, '', 2)} | {written} | {rep} | {lat(g.get('pointer'))} · {lat(pad)} |")
        if add is not None:
            added.append(add)
            ratios.append(ratio)
        if sratio is not None:
            strict.append(sratio)
    print()
    if added:
        print(f"- median over {len(added)} rounds: the pad adds {statistics.median(added):.2f} µs of host CPU per sample; "
              f"pad / pointer {statistics.median(ratios):.2f}"
              + (f", pad / (pointer above the floor) {statistics.median(strict):.2f}" if strict else ""))
        print("- goal (a pad sample costs no more than the pointer path's sample): "
              + ("met" if statistics.median(ratios) <= 1 else "NOT met") + " against the pointer path's whole cost"
              + ((", " + ("met" if statistics.median(strict) <= 1 else "NOT met")
                  + " against its cost above the floor") if strict else ""))


def check(path):
    """The smoke: every run opened its sessions and delivered; every pad sample made a report."""
    bad = []
    for r in rows(path):
        if r["opened"] < r["n"] or r["delivered"] == 0 or (r["mode"] != "floor" and r["injected"] == 0):
            bad.append(f"{r['mode']}: opened {r['opened']} of {r['n']}, delivered {r['delivered']}")
        if r["mode"] == "pad" and (r["written"] is None or r["failed"] or r["written"] < r["delivered"] - r["pdrops"]):
            bad.append(f"pad: {r['written']} reports written ({r['failed']} failed) for {r['delivered']} samples")
    for b in bad:
        print("smoke: " + b, file=sys.stderr)
    return not bad


if __name__ == "__main__":
    main(sys.argv[1])
    if "--check" in sys.argv[2:] and not check(sys.argv[1]):
        sys.exit(1)
