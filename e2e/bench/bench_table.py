"""Turns scripts/bench.sh's result lines into the markdown table of docs/BENCHMARKS.md.

A line: MODE SESSIONS RATE opened A of N sent P seconds T send_errors E disconnects D
receiver_cpu_ns C kernel_drops K [allocs M] stop: <the receiver's last line>
(allocs: COUNT_ALLOCS=1, the host's allocations over its whole run, start to stop)
"""
import re
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


def main(path):
    rows = [parse(l) for l in open(path) if l.strip()]
    loads = []
    for r in rows:
        key = (r["n"], r["rate"])
        if key not in loads:
            loads.append(key)
    print("| load | receiver | sessions | offered packets/s | CPU per packet | × floor | kernel drops "
          "(host's own count) | protocol drops | latency p50 / p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key in loads:
        group = {r["mode"]: r for r in rows if (r["n"], r["rate"]) == key}
        floor = group.get("floor")
        label = f"{key[0]} × {int(key[1])} Hz" if key[1] > 0 else f"{key[0]} × flat out"
        for mode in ("floor", "nio", "base", "plain", "noise"):
            r = group.get(mode)
            if not r:
                continue
            ratio = f"{r['us'] / floor['us']:.1f}×" if floor and mode != "floor" and floor["us"] > 0 else "1"
            kd = f"{r['kdrops']:,}" + (f" ({r['self_kdrops']:,})" if r["self_kdrops"] is not None else "")
            pd = "—" if r["pdrops"] is None else f"{r['pdrops']:,}"
            lat = "—" if r["p50"] is None else f"{r['p50']:.3f} / {r['p99']:.3f} ms"
            name = {"floor": "floor (C, recvmmsg)", "nio": "SwiftNIO alone (counting)", "base": "host plain, BASE_BIN", "plain": "host plain", "noise": "host Noise IK"}[mode]
            print(f"| {label} | {name} | {r['opened']} | {r['pps']:,.0f} | {r['us']:.2f} µs | {ratio} | {kd} | {pd} | {lat} |")
    print()
    for r in rows:
        if r["allocs"] is not None:
            label = f"{r['n']} × {int(r['rate'])} Hz" if r["rate"] > 0 else f"{r['n']} × flat out"
            print(f"- {label}, {r['mode']}: {r['allocs']:,} allocations in the host's run (start to stop, "
                  f"{r['seconds']:g} s streaming): {r['allocs'] / max(1, r['delivered']):.2f} per datagram delivered")
    for key in loads:
        group = {r["mode"]: r for r in rows if (r["n"], r["rate"]) == key}
        if "plain" in group and "noise" in group and group["plain"]["us"] > 0:
            p, q = group["plain"]["us"], group["noise"]["us"]
            label = f"{key[0]} × {int(key[1])} Hz" if key[1] > 0 else f"{key[0]} × flat out"
            print(f"- {label}: Noise / plain CPU per packet = {q / p:.2f} ({100 * (q / p - 1):+.0f}%)")


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
