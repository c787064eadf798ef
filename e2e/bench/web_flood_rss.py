#!/usr/bin/env python3
"""Memory and descriptors of `remotion host` under a connection flood on its web port
(docs/BENCHMARKS.md, "Web controller port under a neighbour's connection flood"). Run inside a network namespace
of the caller's own (scripts/bench-web-flood.sh). For each case: a host under
`prlimit --nofile=SOFT:HARD`, FLOOD connections (half idle, half a ClientHello's first bytes)
from SOURCES loopback addresses (127.0.1.x…), held for 2 s, then closed; prints one
Markdown row: RSS before / during / 6 s after, host descriptors during, the guard's counters,
and how long a page request from 127.0.0.2 took during the flood. Nothing is asserted."""
import argparse, os, re, resource, socket, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
from consent import control  # noqa: E402  (the host's control socket)
from host_process import host_tls  # noqa: E402  (the host's own CA, not checked)

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()
HARD = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
resource.setrlimit(resource.RLIMIT_NOFILE, (HARD, HARD))
HELLO = bytes.fromhex("16030100c8010000c40303") + os.urandom(16)


def host(nofile, name):
    err = os.path.join(a.work, name + ".err")
    proc = subprocess.Popen(["prlimit", f"--nofile={nofile}", a.bin, "host", "--insecure", "--bind", "127.0.0.1", "--port", "0",
                             "--inject", "log", "--no-discovery", "--no-dashboard", "--web-port", "0",
                             "--data-dir", os.path.join(a.work, name), "--ready-file", os.path.join(a.work, name + ".ready")],
                            stdout=subprocess.DEVNULL, stderr=open(err, "w"), text=True,
                            env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(a.work, "config")))
    for _ in range(1200):                   # its readiness signal (docs/ARCHITECTURE.md "Readiness")
        if os.path.exists(os.path.join(a.work, name + ".ready")) or proc.poll() is not None:
            break
        time.sleep(0.05)
    if not os.path.exists(os.path.join(a.work, name + ".ready")):
        sys.exit("the host did not start: " + open(err).read())
    m = None
    for _ in range(100):
        m = re.search(r"web controller on https://[^:]+:(\d+)", open(err).read())
        if m:
            break
        time.sleep(0.05)
    port = int(m.group(1))
    return proc, port, os.path.join(a.work, name)


def rss(pid):
    return int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read()).group(1)) / 1024


def page(port):
    t = time.monotonic()
    try:
        s = host_tls().wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0)))
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        ok = b" 200 " in s.recv(4096)
        s.close()
        return f"{(time.monotonic() - t) * 1000:.0f} ms" if ok else "error"
    except Exception as e:  # noqa: BLE001
        return f"failed ({type(e).__name__} after {time.monotonic() - t:.1f} s)"


def stats(data):
    return control(data, "web-stats").get("connections", {})


print("| host open-file limit (soft:hard) | flood | from | RSS before → during → 6 s after (MiB) | host fds during | page from 127.0.0.2 during | guard counters |")
print("|---|---|---|---|---|---|---|")
for nofile, flood, sources in [("1024:1024", 1300, 1), (f"1024:{HARD}", 3300, 1), ("1024:1024", 3300, 3300), (f"1024:{HARD}", 3300, 3300)]:
    proc, port, data = host(nofile, f"h{nofile.replace(':', '-')}-{sources}")
    time.sleep(0.5)
    before = rss(proc.pid)
    socks = []
    for i in range(flood):
        s = socket.socket(); s.setblocking(False)
        k = i % sources
        s.bind((f"127.0.{1 + k // 250}.{1 + k % 250}", 0) if sources > 1 else ("127.0.0.1", 0))
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        socks.append(s)
    time.sleep(0.5)
    for i, s in enumerate(socks):
        if i % 2:
            try: s.send(HELLO)
            except OSError: pass
    time.sleep(0.5)
    took = page(port)
    during = rss(proc.pid)
    fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
    time.sleep(1)
    for s in socks:
        s.close()
    time.sleep(6)
    after = rss(proc.pid)
    counters = stats(data)
    soft = re.search(r"Max open files\s+(\d+)", open(f"/proc/{proc.pid}/limits").read()).group(1)
    print(f"| {nofile} (running: {soft}) | {flood} | {sources} address{'es' if sources > 1 else ''} | {before:.0f} → {during:.0f} → {after:.0f} "
          f"| {fds} | {took} | {', '.join(f'{k} {v}' for k, v in sorted(counters.items()))} |", flush=True)
    proc.terminate(); proc.wait(10)
