"""Turns scripts/bench.sh's result lines into the markdown table of docs/BENCHMARKS.md.

A line: MODE SESSIONS RATE opened A of N sent P seconds T send_errors E disconnects D
receiver_cpu_ns C kernel_drops K [allocs M] stop: <the receiver's last line>
(allocs: COUNT_ALLOCS=1, the host's allocations over its whole run, start to stop)

With ROUNDS > 1 the same load and receiver come once a round, in order: the table gives each
receiver's median CPU per packet with its range, and its median ratio to the floor of the
same round (each round's receivers ran one after the other, so a ratio pairs runs minutes
apart at most, never across the whole benchmark).
"""
import re
import statistics
import sys

# Receivers that only count raw datagrams (no sessions, no injection): the C floor and NIO alone.
RAW_RECEIVERS = ("floor", "nio")


def field(line, name, cast=int, default=0):
    m = re.search(r"\b" + name + r" (-?[0-9.]+)", line)
    return cast(m.group(1)) if m else default


def parse(line):
    mode, n, rate = line.split()[:3]
    stop = line.split(" stop: ", 1)[1] if " stop: " in line else ""
    r = dict(mode=mode, n=int(n), rate=float(rate), opened=field(line, "opened"),
             sent=field(line, "sent"), seconds=field(line, "seconds", float, 1.0),
             send_errors=field(line, "send_errors"), cpu_ns=field(line, "receiver_cpu_ns"),
             kdrops=field(line, "kernel_drops"), allocs=field(line.split(" stop: ")[0], "allocs", default=None))
    if mode in RAW_RECEIVERS:
        r["delivered"] = field(stop, "packets")
        r["pdrops"], r["p50"], r["p99"], r["self_kdrops"] = None, None, None, None
    else:
        # "injecting N events (R datagrams received, S sent; D dropped by the protocol, …"
        # (before the counts: "(D datagrams dropped by the protocol, …").
        m = re.search(r"injecting (\d+) events \((?:\d+ datagrams received, \d+ sent; )?(\d+) (?:datagrams )?dropped", stop)
        r["injected"], r["pdrops"] = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        m = re.search(r"(\d+) by the kernel", stop)
        r["self_kdrops"] = int(m.group(1)) if m else None
        r["delivered"] = max(0, r["sent"] - r["kdrops"])
        m = re.search(r"p50 ([0-9.]+) ms, p99 ([0-9.]+) ms", stop)
        r["p50"], r["p99"] = (float(m.group(1)), float(m.group(2))) if m else (None, None)
    r["us"] = r["cpu_ns"] / max(1, r["delivered"]) / 1000
    r["pps"] = r["sent"] / r["seconds"]
    return r


def label(key):
    n, rate = key
    return f"{n} × {int(rate)} Hz" if rate > 0 else f"{n} × flat out"


def main(path):
    rows = [parse(l) for l in open(path) if l.strip()]
    # load -> receiver -> its runs, one a round, in order (loads in the order they first ran)
    runs = {}
    for r in rows:
        runs.setdefault((r["n"], r["rate"]), {}).setdefault(r["mode"], []).append(r)
    print("| load | receiver | sessions | offered packets/s | CPU per packet | × floor | kernel drops "
          "(host's own count) | protocol drops | latency p50 / p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, by_mode in runs.items():
        floors = by_mode.get("floor", [])
        for mode in ("floor", "nio", "base", "plain", "noise"):
            if mode not in by_mode:
                continue
            r, cpu, ratio = summary(by_mode[mode], floors if mode != "floor" else [])
            kd = f"{r['kdrops']:,}" + (f" ({r['self_kdrops']:,})" if r["self_kdrops"] is not None else "")
            pd = "—" if r["pdrops"] is None else f"{r['pdrops']:,}"
            lat = "—" if r["p50"] is None else f"{r['p50']:.3f} / {r['p99']:.3f} ms"
            name = {"floor": "floor (C, recvmmsg)", "nio": "SwiftNIO alone (counting)", "base": "host plain, BASE_BIN", "plain": "host plain", "noise": "host Noise IK"}[mode]
            print(f"| {label(key)} | {name} | {r['opened']} | {r['pps']:,.0f} | {cpu} | {ratio} | {kd} | {pd} | {lat} |")
    rounds = max((len(v) for by_mode in runs.values() for v in by_mode.values()), default=1)
    if rounds > 1:
        print(f"\n{rounds} rounds: CPU per packet is the median (and range) of the rounds; × floor the median "
              "(and range) of each round's ratio to that round's floor; the other columns are the median run's.")
    print()
    for r in rows:
        if r["allocs"] is not None:
            print(f"- {label((r['n'], r['rate']))}, {r['mode']}: {r['allocs']:,} allocations in the host's run (start to stop, "
                  f"{r['seconds']:g} s streaming): {r['allocs'] / max(1, r['delivered']):.2f} per datagram delivered")
    for key, by_mode in runs.items():
        if "plain" in by_mode and "noise" in by_mode:
            p, q = (statistics.median(r["us"] for r in by_mode[m]) for m in ("plain", "noise"))
            if p > 0:
                print(f"- {label(key)}: Noise / plain CPU per packet = {q / p:.2f} ({100 * (q / p - 1):+.0f}%)")


def summary(runs, floors):
    """One receiver's runs under one load -> (its median run, CPU per packet, × floor).
    The ratio of run i is to floor run i (the same round); a single run prints as before."""
    ordered = sorted(runs, key=lambda r: r["us"])
    median = ordered[(len(ordered) - 1) // 2]
    ratios = [r["us"] / f["us"] for r, f in zip(runs, floors) if f["us"] > 0]
    if len(runs) == 1:
        return median, f"{median['us']:.2f} µs", f"{ratios[0]:.1f}×" if ratios else "1"
    cpu = f"{statistics.median(r['us'] for r in runs):.2f} µs ({ordered[0]['us']:.2f}–{ordered[-1]['us']:.2f})"
    if not ratios:
        return median, cpu, "1"
    return median, cpu, f"{statistics.median(ratios):.1f}× ({min(ratios):.1f}–{max(ratios):.1f})"


def check(path):
    """The CI smoke: every run opened its sessions and delivered packets (no timing)."""
    bad = [r for r in map(parse, (l for l in open(path) if l.strip()))
           if r["opened"] < r["n"] or r["delivered"] == 0 or (r["mode"] not in RAW_RECEIVERS and r["injected"] == 0)]
    for r in bad:
        print(f"smoke: {r['mode']} {r['n']}x{r['rate']:g}: opened {r['opened']}, delivered {r['delivered']}", file=sys.stderr)
    return not bad


if __name__ == "__main__":
    main(sys.argv[1])
    if "--check" in sys.argv[2:] and not check(sys.argv[1]):
        sys.exit(1)
