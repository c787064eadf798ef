#!/usr/bin/env python3
"""The web controller's HTTPS port withstands a neighbour (docs/SECURITY.md §9), stdlib only.

Run inside a network namespace of the caller's own (scripts/web-flood-test.sh). Starts
`remotion host --inject log` under `prlimit --nofile=1024:1024` (a systemd unit's soft
limit, and no hard headroom: the caps and timeouts must do the work), then one process
(this one) opens FLOOD connections from 127.0.0.1 to the web port, half idle TCP and half a
ClientHello's first bytes then nothing, and holds them. Checks: a fresh HTTPS request for
the page from 127.0.0.2 succeeds within 2 s while the flood is held; the host refused the
connections over the per-address cap (counted); the ones it admitted are closed by the
TLS-handshake timeout, a connection that finished TLS and then idled by the idle timeout;
a UDP controller (`remotion client`) is accepted and injects during the flood. A second
host under `--nofile=1024:4096` says it raised its soft limit to 4096. RSS of the host
before / during / after the flood is printed (docs/BENCHMARKS.md).
Prints 'N passed, N failed'.
"""
import argparse
import json
import os
import re
import resource
import select
import signal
import socket
import ssl
import subprocess
import threading
import time

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--work", required=True)
p.add_argument("--flood", type=int, default=1300)
a = p.parse_args()

from raw_page_client import CHECKS, host_tls  # noqa: E402  ('ok'/'FAIL' lines and the closing count)
from consent import control  # noqa: E402  (the host's control socket)
from host_process import interrupt  # noqa: E402

check, finish = CHECKS.check, CHECKS.finish


soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))   # the flooder's own descriptors


def start_host(name, nofile):
    data = os.path.join(a.work, name)
    err = open(os.path.join(a.work, name + ".err"), "w+")
    ready_file = os.path.join(a.work, name + ".ready.json")
    proc = subprocess.Popen(["prlimit", f"--nofile={nofile}", a.bin, "host", "--insecure", "--bind", "127.0.0.1",
                             "--port", "0", "--inject", "log", "--no-discovery", "--no-dashboard", "--web-port", "0",
                             "--data-dir", data, "--ready-file", ready_file], stdout=subprocess.PIPE, stderr=err, text=True,
                            env=dict(os.environ, XDG_CONFIG_HOME=os.path.join(a.work, "config")))
    out = []

    def pump():
        for line in proc.stdout:
            out.append(line.strip())
    threading.Thread(target=pump, daemon=True).start()
    # The host's readiness signal: every port, once all listen (docs/ARCHITECTURE.md "Readiness").
    end = time.monotonic() + 60
    while not os.path.exists(ready_file) and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
    if not os.path.exists(ready_file):
        err.seek(0)
        print(err.read())
        raise SystemExit("the host did not become ready")
    ready = json.load(open(ready_file))
    err.flush()
    text = open(err.name).read()
    return proc, out, data, ready["webPort"], ready["udpPort"], text


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


def host_pid(proc):
    # prlimit execs the program, so the child is the host itself
    return proc.pid


def fetch_page(port, source, timeout=2.0):
    """GET / over TLS from `source`; returns (seconds, status line) or (None, error)."""
    t = time.monotonic()
    try:
        tls = host_tls()     # the host's own CA; this checks reachability
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
        s = tls.wrap_socket(raw)
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
        s.close()
        return time.monotonic() - t, reply.split(b"\r\n")[0].decode(errors="replace")
    except Exception as e:   # noqa: BLE001 - any failure is the answer
        return None, repr(e)


# A TLS 1.2/1.3 ClientHello's first bytes (record header + handshake header + version +
# part of the random): the server waits for the rest.
PARTIAL_HELLO = bytes.fromhex("16030100c8010000c40303") + os.urandom(16)

host, out, data, web, udp, err_text = start_host("flood", "1024:1024")
pid = host_pid(host)
try:
    m = re.search(r"open-file limit[^\n]*", err_text)
    check("the host says its open-file limit", m is not None and "1024" in m.group(0), f"({m.group(0) if m else err_text[:200]})")
    took, status = fetch_page(web, "127.0.0.2")
    check("the page loads before the flood", took is not None and " 200" in status, f"({status})")
    rss_before = rss_mib(pid)

    # ── the flood: one process, one address ───────────────────────────────────────────
    flood = []
    t0 = time.monotonic()
    for i in range(a.flood):
        s = socket.socket()
        s.setblocking(False)
        s.bind(("127.0.0.1", 0))
        try:
            s.connect(("127.0.0.1", web))
        except BlockingIOError:
            pass
        flood.append(s)
    poller = select.poll()
    poller.register(flood[-1], select.POLLOUT)
    poller.poll(2000)
    for i, s in enumerate(flood):
        if i % 2:
            try:
                s.send(PARTIAL_HELLO)
            except OSError:
                pass
    # One connection from another address finishes TLS, then idles (the idle timeout's case).
    idle = host_tls().wrap_socket(socket.create_connection(("127.0.0.1", web), timeout=5, source_address=("127.0.0.3", 0)))
    idle_since = time.monotonic()
    time.sleep(0.5)
    rss_during = rss_mib(pid)
    fds_during = len(os.listdir(f"/proc/{pid}/fd"))
    took, status = fetch_page(web, "127.0.0.2")
    check("a fresh page request from 127.0.0.2 succeeds within 2 s during the flood",
          took is not None and " 200" in status, f"({took and f'{took * 1000:.0f} ms'}; {status})")
    check("the host's descriptors stay far below its limit during the flood", fds_during < 200,
          f"({fds_during} open of 1024)")

    # ── a UDP controller is accepted during the flood ────────────────────────────────
    before = len(out)
    client = subprocess.run([a.bin, "client", "--insecure", "--host", f"127.0.0.1:{udp}", "--source", "synthetic:circle",
                             "--rate", "60", "--duration", "1.5", "--press", "A@0.3+0.3"],
                            capture_output=True, text=True, timeout=30)
    time.sleep(0.2)
    injected = [l for l in out[before:] if '"kind":"button"' in l]
    check("a UDP controller is accepted and injects during the flood",
          client.returncode == 0 and len(injected) == 2, f"(client rc {client.returncode}; {len(injected)} button events; {client.stderr.strip().splitlines()[-1:]})")

    # ── the timeouts close what the host admitted ────────────────────────────────────
    # Seen from the host's side (ss: established sockets on the web port whose peer is
    # 127.0.0.1): the flooder's own view also has connections the kernel never finished
    # (the listen queue overflowed; they sit in SYN-RECV and never reach the host).
    def held_from(peer):
        out = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{web} )"], capture_output=True, text=True).stdout
        return sum(1 for line in out.splitlines() if line.split()[-1].rsplit(":", 1)[0] == peer)

    # The 16 admitted die by the 5 s handshake timeout. Connections the kernel finished late
    # (SYN-ACK retransmitted at 1, 3, 7 s after the listen queue overflowed) reach the host
    # later and are refused by the cap or admitted and timed out in turn: on a loaded machine
    # that can take a few seconds more, so this waits for the host's own view to drain.
    deadline = t0 + 25
    while held_from("127.0.0.1") and time.monotonic() < deadline:
        time.sleep(0.2)
    drained = time.monotonic() - t0
    check("the host holds none of the flood's connections once the handshake timeout has passed (caps, then the timeout)",
          held_from("127.0.0.1") == 0, f"({held_from('127.0.0.1')} held; drained {drained:.1f} s after the flood began)")
    idle.settimeout(15)
    try:
        got = idle.recv(4096)
    except (OSError, ssl.SSLError):
        got = b""
    idle_closed = time.monotonic() - idle_since
    check("a connection that finished TLS and idled is closed by the idle timeout", got == b"" and 9 <= idle_closed <= 13,
          f"(closed after {idle_closed:.1f} s)")
    # The flood's connections the host let go, seen from the flooder: each one ended with EOF
    # or a reset. How many the kernel finished in time depends on the machine's load (the
    # rest sit in SYN-RECV behind the 256-deep listen queue; 874 of 1,300 reached the host
    # once on a loaded machine, 1,142 on an idle one): each one that did must be counted, as
    # a refusal by the cap or an admitted connection timed out, and most of them refused (a
    # host without the per-address cap would admit them and time them out instead).
    let_go = 0
    for s in flood:
        try:
            s.setblocking(False)
            if s.recv(1) == b"":
                let_go += 1
        except (ConnectionResetError, BrokenPipeError):
            let_go += 1
        except OSError:
            pass   # still open, or never connected
    stats = control(data, "web-stats")
    conns = stats.get("connections", {})
    refused, timed_out = conns.get("per-address-cap", 0), conns.get("handshake-timeout", 0)
    check("the host refused the flood over the per-address cap and timed out the ones it admitted (16 at a time), "
          "counting every connection it let go",
          let_go > 256 and refused + timed_out >= let_go and refused > let_go // 2 and timed_out >= 16
          and conns.get("idle-timeout", 0) == 1, f"({conns}; the flooder saw {let_go} of {a.flood} let go)")
    for s in flood:
        s.close()
    time.sleep(1)
    rss_after = rss_mib(pid)
    fds_after = len(os.listdir(f"/proc/{pid}/fd"))
    took, status = fetch_page(web, "127.0.0.1")
    check("after the flood the page loads from the flooding address again", took is not None and " 200" in status, f"({status})")
    # ── a flood from many addresses fills the total cap (512 at 1024 descriptors) ──────
    # Paced in batches of 150, each sent once the host has taken the last one off the
    # listen queue (its Recv-Q in `ss -l`, the kernel's own count; at most 3 s): 900 at
    # once overflow the queue (256 deep), and the SYNs it drops come back only at 1, 3, 7 s,
    # which on a loaded machine spread the flood past the 5 s handshake timeout so the
    # total cap is barely reached (CI saw 45 evictions). Paced, all 900 reach the host
    # well within the timeout.
    def listen_queue():
        out = subprocess.run(["ss", "-Hltn", f"( sport = :{web} )"], capture_output=True, text=True).stdout.split()
        return int(out[1]) if len(out) > 1 else 0

    many = []
    paced_from = time.monotonic()
    for first in range(0, 900, 150):
        queue_deadline = time.monotonic() + 3
        while listen_queue() > 50 and time.monotonic() < queue_deadline:
            time.sleep(0.01)
        for i in range(first, min(900, first + 150)):
            s = socket.socket()
            s.setblocking(False)
            s.bind((f"127.0.{1 + i // 250}.{1 + i % 250}", 0))
            try:
                s.connect(("127.0.0.1", web))
            except BlockingIOError:
                pass
            many.append(s)
    paced = time.monotonic() - paced_from
    # The host's own count says when it has seen enough of them (a loaded machine accepts
    # more slowly; the listen queue holds 256): at most 15 s.
    deadline = time.monotonic() + 15
    while control(data, "web-stats").get("connections", {}).get("evicted", 0) < 50 and time.monotonic() < deadline:
        time.sleep(0.1)
    took, status = fetch_page(web, "127.0.0.2")
    evicted = control(data, "web-stats").get("connections", {}).get("evicted", 0)
    fds_many = len(os.listdir(f"/proc/{pid}/fd"))
    check("900 connections from 900 addresses: the oldest are evicted and the page still loads within 2 s",
          took is not None and " 200" in status and evicted >= 50 and fds_many < 700,
          f"({took and f'{took * 1000:.0f} ms'}; {status}; evicted {evicted}; host descriptors {fds_many}; flood paced over {paced:.1f} s)")
    for s in many:
        s.close()
    print(f"RSS of the host: before {rss_before:.1f} MiB, during the flood {rss_during:.1f} MiB, after {rss_after:.1f} MiB; "
          f"descriptors during {fds_during}, after {fds_after}; flood {a.flood} connections")
finally:
    interrupt(host, 10, signal.SIGTERM)

# ── the soft limit is raised to the hard one at start ────────────────────────────────
host, out, data, web, udp, err_text = start_host("raise", "1024:4096")
try:
    limits = open(f"/proc/{host.pid}/limits").read()
    soft_now = re.search(r"Max open files\s+(\d+)", limits).group(1)
    said = re.search(r"open-file[^\n]*", err_text)
    check("the host raises its soft open-file limit to the hard one, and says so",
          soft_now == "4096" and "raised from 1024 to 4096" in err_text, f"(soft {soft_now}; {said and said.group(0)})")
finally:
    interrupt(host, 10, signal.SIGTERM)
finish()
