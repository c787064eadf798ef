#!/usr/bin/env python3
"""The timed figures the stages print in their check lines, over repeated runs: n, min, median,
max per figure, and the bound the stage asserts (every bound a wide margin above the
measured worst). scripts/bench-stage-timings.sh runs the stages and calls this on their logs,
named STAGE.RUN.log. docs/BENCHMARKS.md, "Figures that left the tests", records its output.
  stage_timings.py LOG_DIRECTORY"""
import glob, re, statistics, sys

# figure: (stage, pattern of the value in its check line, the bound the stage keeps)
FIGURES = {
    "web-controller: tab closed while A held → Button1 released (s)":
        ("web-controller-test", r"Button1 released within [\d.]+ s \(([\d.]+) s\)", "≤ 2.5 s (the session's 2.5 s silence limit)"),
    "web-controller: revoked phone dropped, from the CLI's return (s)":
        ("web-controller-test", r"revoked phone is dropped within [\d.]+ s \(([\d.]+) s\)", "≤ 1 s (the host re-reads the list every 250 ms)"),
    "web-modes: tab closed during a drag → released (s)":
        ("web-modes-test", r"released once within [\d.]+ s \(([\d.]+) s\)", "≤ 2.5 s"),
    "webkit: browser closed during a drag → released (s)":
        ("webkit-test", r"released once within [\d.]+ s \(([\d.]+) s\)", "≤ 2.5 s"),
    "webkit: motion frames/s the page sends (60 Hz sensors)":
        ("webkit-test", r"motion frames/s go out \(([\d.]+)", "30–90 (was 50–70)"),
    "stall: moves in the 50 ms after a 1 s stall, client streaming":
        ("web-stall-test", r"after the silence \(a replay: ~100\) \((\d+) moves", "≤ 8 (a replay: ~100)"),
    "blocked reader: silent phone's A released, s after the flood's end":
        ("web-stall-test", r"\(([-+\d.]+) s from the end of the flood\)", "≤ +1.0 s (timeout 2.5 s from the last read)"),
    "blocked reader: revoked phone's A released, s after the CLI's return":
        ("web-stall-test", r"\(([\d.]+) s after the revocation", "≤ 1 s, and before the 2.5 s timeout"),
    "dsu-e2e B: killed DSU server's press released (s; host timeout 1 s)":
        ("dsu-e2e", r"timeout \(after ([\d.]+) s", "0.5–3.0 s (was 0.5–1.5)"),
    "cli-e2e: `remotion demo --duration 1` wall time (s)":
        ("cli-e2e", r"streams one second \(took ([\d.]+) s\)", "< 10 s and ≤ 125 packets (was < 4 s)"),
    "flood: page from another address during the flood (ms)":
        ("web-flood-test", r"during the flood \((\d+) ms", "≤ 2000 ms (the fetch's timeout)"),
    "flood: idle TLS connection closed after (s; idle timeout 10 s)":
        ("web-flood-test", r"closed after ([\d.]+) s", "9–13 s"),
    "flood: page after 900 addresses (ms)":
        ("web-flood-test", r"still loads within 2 s \((\d+) ms", "≤ 2000 ms"),
}


def main():
    d = sys.argv[1]
    print("| figure | n | min | median | max | the stage's bound |")
    print("|---|---|---|---|---|---|")
    for name, (stage, pattern, bound) in FIGURES.items():
        values = []
        for path in sorted(glob.glob("%s/%s.*.log" % (d, stage))):
            for line in open(path, errors="replace"):
                m = re.search(pattern, line)
                if m:
                    values.append(float(m.group(1)))
        if values:
            print("| %s | %d | %g | %g | %g | %s |" % (name, len(values), min(values), statistics.median(values), max(values), bound))


if __name__ == "__main__":
    main()
