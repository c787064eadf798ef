#!/usr/bin/env python3
"""Web controller benchmark (scripts/bench-web.sh runs it inside a lo-only namespace).

One host (`--inject virtual`), and in the same run:
  phase 1  idle host, 5 s (--idle-seconds)               → host CPU baseline
  phase 2  one web controller (headless Chromium, emulated sensors at the browser's rate), 20 s
  phase 3  one `remotion client` at the same rate, 20 s
  phase 4  both at once, 20 s: one-way latency p50/p99 of each, from the host's snapshot
Prints a markdown table. Host CPU is the scheduler's own count of the time the host's threads
ran (/proc/PID/task/*/schedstat, nanoseconds), not utime+stime: this kernel accounts those by
sampling at its 4 ms tick (CONFIG_TICK_CPU_ACCOUNTING), and a host that runs ~0.3 ms 60 times a
second is caught by a few dozen ticks per phase — single runs swung by ±30%. The tick figure is
printed beside it for comparison with earlier runs."""
import argparse, functools, os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import host_process  # noqa: E402

from selenium.webdriver.common.by import By

from bench_page import controllers, phone, run_seconds, tick_seconds  # noqa: E402


def thread_names(pid, tids):
    out = {}
    for tid in tids:
        try:
            out[tid] = open("/proc/%d/task/%s/comm" % (pid, tid)).read().strip()
        except OSError:
            out[tid] = "?"
    return out


def by_thread(pid, before, after):
    """Time run between two readings, by thread name (NIO's loops, the concurrency pool, …)."""
    names, out = thread_names(pid, after.keys()), {}
    for tid, t in after.items():
        out[names[tid]] = out.get(names[tid], 0.0) + t - before.get(tid, 0.0)
    return out


def cpu_between(before, after):
    """Time run between two readings: a thread that began in between counts whole; one that
    ended in between is missing its last part (measure() reports how many ended)."""
    return sum(t - before.get(tid, 0.0) for tid, t in after.items())


wait = functools.partial(host_process.wait, timeout=10.0, step=0.1)


def measure(pid, seconds, port, kinds):
    p0 = {c["session"]: c["motionPackets"] for c in controllers(port)}
    r0, k0, t0 = run_seconds(pid), tick_seconds(pid), time.monotonic()
    time.sleep(seconds)
    r1, k1, t1 = run_seconds(pid), tick_seconds(pid), time.monotonic()
    now = controllers(port)
    packets = sum(c["motionPackets"] - p0.get(c["session"], 0) for c in now)
    ended = len([tid for tid in r0 if tid not in r1])
    return {"cpu": cpu_between(r0, r1), "ticks": k1 - k0, "wall": t1 - t0, "packets": packets,
            "controllers": now, "threadsEnded": ended, "threads": by_thread(pid, r0, r1)}


def main():
    ap = argparse.ArgumentParser()
    for a in ("--bin", "--url", "--udp", "--dashboard", "--host-pid", "--profile"):
        ap.add_argument(a, required=True)
    ap.add_argument("--seconds", type=float, default=20)
    # The idle baseline is subtracted from every phase: at ~0.8% of a core, 5 s is a few
    # 10 ms ticks of CPU time; a longer one makes the per-packet figures steadier.
    ap.add_argument("--idle-seconds", type=float, default=5)
    a = ap.parse_args()
    pid, dash = int(a.host_pid), int(a.dashboard)
    idle = measure(pid, a.idle_seconds, dash, [])

    d = phone(a.profile)
    d.get(a.url)
    wait(lambda: d.execute_script("return window.remotionTest && remotionTest.state().screen") == "pair")
    d.find_element(By.ID, "pair-go").click()
    wait(lambda: d.execute_script("return remotionTest.state().status") == "connected")
    d.find_element(By.ID, "start").click()
    wait(lambda: d.execute_script("return remotionTest.state().sensors") == "on")
    time.sleep(2)
    rate = d.execute_script("return remotionTest.state().motionRate") or 60
    web = measure(pid, a.seconds, dash, ["web"])

    client_cmd = [a.bin, "client", "--host", a.udp, "--insecure", "--source", "synthetic:circle",
                  "--rate", "%d" % round(rate), "--duration", "%d" % (a.seconds * 2 + 10)]
    d.quit()
    time.sleep(1)
    client = subprocess.Popen(client_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)
    udp = measure(pid, a.seconds, dash, ["udp"])
    udp_sessions = {c["session"] for c in udp["controllers"]}

    d = phone(a.profile)
    d.get(a.url.split("#")[0])
    wait(lambda: d.execute_script("return window.remotionTest && remotionTest.state().status") == "connected")
    d.find_element(By.ID, "start").click()
    wait(lambda: d.execute_script("return remotionTest.state().sensors") == "on")
    time.sleep(3)
    both = measure(pid, a.seconds, dash, ["web", "udp"])
    d.quit()
    client.terminate()
    client.wait(10)

    base, base_ticks = idle["cpu"] / idle["wall"], idle["ticks"] / idle["wall"]
    def above_idle(m, seconds, idle_rate):
        """µs per frame of the phase `m` above what the idle host ran at `idle_rate`."""
        return (seconds - idle_rate * m["wall"]) / max(1, m["packets"]) * 1e6
    def per_packet(m, key="cpu", rate=base):
        return above_idle(m, m[key], rate)
    print("| what | packets/s | host CPU (share of a core) | host CPU per packet above idle | the same from 4 ms ticks |")
    print("|---|---|---|---|---|")
    print("| idle host | 0 | %.4f | - | - |" % base)
    rows = (("1 web controller (Chromium, emulated sensors)", web), ("1 UDP controller (`remotion client --insecure`)", udp))
    for name, m in rows:
        print("| %s | %.1f | %.4f | %.1f µs | %.1f µs |" % (name, m["packets"] / m["wall"], m["cpu"] / m["wall"],
                                                     per_packet(m), per_packet(m, "ticks", base_ticks)))
    print()
    print("web frame / UDP frame: %.2f× (ticks: %.2f×)" % (
        per_packet(web) / max(1e-9, per_packet(udp)), per_packet(web, "ticks", base_ticks) / max(1e-9, per_packet(udp, "ticks", base_ticks))))
    print()
    print("| host thread | idle (µs/s) | web phase (µs per web frame, above idle) | UDP phase (µs per UDP frame, above idle) |")
    print("|---|---|---|---|")
    names = sorted(set(idle["threads"]) | set(web["threads"]) | set(udp["threads"]))
    for n in names:
        i = idle["threads"].get(n, 0.0) / idle["wall"]
        print("| %s | %.0f | %.1f | %.1f |" % (n, i * 1e6, above_idle(web, web["threads"].get(n, 0.0), i),
                                              above_idle(udp, udp["threads"].get(n, 0.0), i)))
    ended = sum(m["threadsEnded"] for m in (idle, web, udp))
    if ended:
        print("note: %d host threads ended during the phases; their last running time is not counted" % ended)
    print()
    print("| controller, both streaming at once | p50 one-way latency | p99 |")
    print("|---|---|---|")
    for c in both["controllers"]:
        kind = "UDP controller (`remotion client`)" if c["session"] in udp_sessions else "web controller (Chromium)"
        print("| %s | %.2f ms | %.2f ms |" % (kind, c["latencyP50Ms"], c["latencyP99Ms"]))


if __name__ == "__main__":
    sys.exit(main())
