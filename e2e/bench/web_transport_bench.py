#!/usr/bin/env python3
"""Web controller transports benchmark (scripts/bench-web-transport.sh runs it in its own
namespace). One host (`--inject virtual`); in one run: the idle host, then N = 1 and 4
controllers of each kind at 60 Hz — `remotion client` (UDP), the page on data channels,
the page on the WebSocket (RTCPeerConnection removed before the page loads, so it falls
back) — each phase `--seconds` long. Host CPU: utime+stime from /proc minus the idle rate,
per motion frame the host counted. Latency: the host's per-controller one-way p50/p99 from
its dashboard snapshot (each phase's sessions are new). Prints a markdown table."""
import argparse, functools, os, re, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import host_process  # noqa: E402

from selenium.webdriver.common.by import By

from bench_page import controllers, phone, tick_seconds as cpu_seconds  # noqa: E402


wait = functools.partial(host_process.wait, timeout=15.0, step=0.1)


def state(d):
    return d.execute_script("return window.remotionTest ? remotionTest.state() : {}") or {}


def measure(pid, seconds, port):
    c0, t0 = cpu_seconds(pid), time.monotonic()
    p0 = {c["session"]: c["motionPackets"] for c in controllers(port)}
    time.sleep(seconds)
    c1, t1 = cpu_seconds(pid), time.monotonic()
    now = controllers(port)
    packets = sum(c["motionPackets"] - p0.get(c["session"], 0) for c in now)
    return {"cpu": c1 - c0, "wall": t1 - t0, "packets": packets, "controllers": now, "before": set(p0)}


def main():
    ap = argparse.ArgumentParser()
    for a in ("--bin", "--url", "--udp", "--dashboard", "--host-pid", "--work"):
        ap.add_argument(a, required=True)
    ap.add_argument("--seconds", type=float, default=10)
    a = ap.parse_args()
    pid, dash = int(a.host_pid), int(a.dashboard)
    base = a.url.split("#")[0]
    idle = measure(pid, 5, dash)
    rows = []

    # Four paired phones (one pairing link each), reused by the browser phases.
    urls = [a.url]
    for _ in range(3):
        out = subprocess.run([a.bin, "pair", "--web", "--data-dir", os.path.join(a.work, "data")], capture_output=True, text=True).stdout
        urls.append(re.findall(r"pair a phone: (\S+)", out)[0])
    profiles = [os.path.join(a.work, "phone%d" % i) for i in range(4)]
    for i in range(4):
        d = phone(profiles[i], True)
        d.get(urls[i])
        wait(lambda: state(d).get("screen") == "pair")
        d.find_element(By.ID, "pair-go").click()
        wait(lambda: state(d).get("status") == "connected")
        d.quit()

    def browsers(n, rtc, label):
        ds = [phone(profiles[i], rtc) for i in range(n)]
        for d in ds:
            d.get(base)
        for d in ds:
            wait(lambda: state(d).get("status") == "connected")
            d.find_element(By.ID, "start").click()
        ok = all(wait(lambda: state(d).get("sensors") == "on") for d in ds)
        transports = {state(d).get("transport") for d in ds}
        time.sleep(3)
        m = measure(pid, a.seconds, dash)
        for d in ds:
            d.quit()
        time.sleep(3)   # sessions end (tab closed → host times them out or sees the close)
        rows.append((label, n, m, ok, transports))

    def clients(n):
        ps = [subprocess.Popen([a.bin, "client", "--host", a.udp, "--insecure", "--source", "synthetic:circle",
                                "--rate", "60", "--duration", str(int(a.seconds + 6))],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(n)]
        time.sleep(2)
        m = measure(pid, a.seconds, dash)
        for p in ps:
            p.wait(30)
        time.sleep(1)
        rows.append(("UDP controller (`remotion client`)", n, m, True, {"udp"}))

    for n in (1, 4):
        clients(n)
        browsers(n, True, "page on data channels")
        browsers(n, False, "page on the WebSocket")

    base_rate = idle["cpu"] / idle["wall"]
    print("idle host: %.4f of a core" % base_rate)
    print("| controllers | transport | frames/s (all) | host CPU (share of a core) | host CPU per frame above idle | one-way p50 | p99 (worst controller) |")
    print("|---|---|---|---|---|---|---|")
    for label, n, m, ok, transports in rows:
        per = (m["cpu"] - base_rate * m["wall"]) / max(1, m["packets"]) * 1e6
        live = [c for c in m["controllers"] if c["session"] in m["before"]]
        p50 = sorted(c["latencyP50Ms"] for c in live)
        p99 = max((c["latencyP99Ms"] for c in live), default=float("nan"))
        print("| %d | %s%s | %.1f | %.4f | %.0f µs | %s ms | %.2f ms |" % (
            n, label, "" if ok else " (sensors did not start!)", m["packets"] / m["wall"], m["cpu"] / m["wall"], per,
            "/".join("%.2f" % x for x in p50), p99))
        if transports - {"udp", "webrtc", "websocket"} or len(transports) != 1:
            print("  (transports seen: %s)" % sorted(map(str, transports)))


if __name__ == "__main__":
    sys.exit(main())
