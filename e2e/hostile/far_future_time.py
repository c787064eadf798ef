#!/usr/bin/env python3
"""A host with a virtual pad fed hostile time from outside stays up (docs/SECURITY.md, "Time
from outside").

Starts `remotion host --gamepad dualsense --gamepad-sink null` (the null sink stands in for
/dev/uhid, which this kernel lacks: the pad's reports are built and written to /dev/null, so
the pad's whole report path runs) with a DSU source (this script's own DSU server socket on
127.0.0.1) and the DSU server on (this script subscribes as an emulator would). Then:
  - the DSU source sends 0.4 s of samples at 250 Hz, then one 4e15 µs in the future (the
    jump that once trapped such a host: SIGILL, every held input gone), u64's extremes,
    a 3e38 °/s gyro, and more samples;
  - a plain-mode UDP controller (same decoder and pipeline as a paired one after Noise) does
    the same, holding button A across the jump, then leaves.
Checks: the host still answers a controller's ping after each stream (a trapped host is
still a process while its backtrace is written, for seconds, but answers nothing); what its DSU server served stays within
a real pad's range (±2000 °/s, ±8 g, never NaN); SIGINT stops it with exit 0 and its stop
line. Loopback only; bounded (about 5 s of traffic, 30 s at most).
Prints 'N passed, N failed'.
"""
import math
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "dsu"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import dsu_peer  # noqa: E402  (seal/unseal/pad_payload/parse_pad: the independent DSU peer)
from host_process import Tally, interrupt, wait_file  # noqa: E402

JUMP = 4_000_000_000_000_000
tally = Tally()
check = tally.check


def answers(udp_port, session):
    """A plain controller's ping gets the host's pong within 2 s (then the session ends)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2.0)
    header = struct.pack("<BBBBI", 0x52, 1, 1, 0, session)
    s.sendto(header + struct.pack("<BQq", 0x01, 1_000_000, 0), ("127.0.0.1", udp_port))
    try:
        data, _ = s.recvfrom(2048)
        ok = len(data) >= 9 and data[8] == 0x02
    except socket.timeout:
        ok = False
    s.sendto(header + struct.pack("<BB", 0x06, 0), ("127.0.0.1", udp_port))
    s.close()
    return ok


def dsu_times():
    """The source's timestamps: plausible, the jump, the extremes, plausible again."""
    ts = [k * 4_000 for k in range(100)]
    t = ts[-1]
    return ts + [t + JUMP, t + JUMP + 4_000, 2**64 - 1, 0, 2**63, t + JUMP + 8_000] + [t + JUMP + 12_000 + 4_000 * k for k in range(25)]


def main():
    binary = sys.argv[1]
    work = tempfile.mkdtemp(prefix="far-future-")
    source = dsu_peer.make_socket("127.0.0.1", 0)
    source.settimeout(0.2)
    source_port = source.getsockname()[1]
    ready = os.path.join(work, "ready.json")
    err = open(os.path.join(work, "host.err"), "w")
    host = subprocess.Popen([binary, "host", "--insecure", "--bind", "127.0.0.1", "--port", "0", "--inject", "log",
                             "--no-discovery", "--no-dashboard", "--no-web", "--gamepad", "dualsense",
                             "--gamepad-sink", "null", "--dsu", f"127.0.0.1:{source_port}", "--dsu-serve", "0",
                             "--data-dir", os.path.join(work, "data"), "--ready-file", ready],
                            stdout=subprocess.DEVNULL, stderr=err)
    try:
        info = wait_file(ready, host, 30)
        check("the host with a pad (null sink) and a DSU source becomes ready", info is not None)
        if info is None:
            return
        udp_port = info["udpPort"]
        serve = info["dsuServe"]
        emulator = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        emulator.bind(("127.0.0.1", 0))
        emulator.setblocking(False)
        serve_addr = ("127.0.0.1", int(serve.rsplit(":", 1)[1]))
        subscribe = dsu_peer.seal(b"DSUC", 77, dsu_peer.T_PAD, bytes([0, 0]) + b"\0" * 6)

        # The host asks its source for pad data: wait for that request, answer with the stream.
        client = None
        end = time.monotonic() + 10
        while client is None and time.monotonic() < end:
            try:
                data, addr = source.recvfrom(2048)
            except socket.timeout:
                continue
            try:
                _, kind, _ = dsu_peer.unseal(data, b"DSUC")
            except ValueError:
                continue
            if kind == dsu_peer.T_PAD:
                client = addr
        check("the host subscribes to its DSU source", client is not None)
        served = []

        def drain():
            while True:
                try:
                    data, _ = emulator.recvfrom(2048)
                except BlockingIOError:
                    return
                try:
                    _, kind, payload = dsu_peer.unseal(data, b"DSUS")
                    if kind == dsu_peer.T_PAD:
                        served.append(dsu_peer.parse_pad(payload))
                except ValueError:
                    pass

        for k, t in enumerate(dsu_times()):
            if k % 25 == 0:
                emulator.sendto(subscribe, serve_addr)
            gyro = (3e38, -3e38, 3e38) if k == 60 else (0.0, 90.0, 0.0)
            pressed = {"cross"} if 90 <= k < 120 else set()
            if client is not None:
                source.sendto(dsu_peer.seal(b"DSUS", 42, dsu_peer.T_PAD,
                                            dsu_peer.pad_payload(0, k + 1, t, pressed, (0.0, -1.0, 0.0), gyro)), client)
            time.sleep(0.004)
            drain()
        time.sleep(0.3)
        drain()
        # Alive means answering: a host that trapped is still a process while its backtrace is
        # written (seconds), but it answers nothing.
        check("the host still answers a controller after the DSU source's 3e38 °/s, far-future and extreme samples",
              answers(udp_port, 0x5EE0))
        check("the DSU server served the source's samples to a subscribed emulator", len(served) > 50, f"{len(served)}")
        bad = [p for p in served if not all(math.isfinite(v) and abs(v) <= 2000 for v in p["gyro"])
               or not all(math.isfinite(v) and abs(v) <= 8 for v in p["accel"])]
        check("every served gyro is within ±2000 °/s and acceleration within ±8 g", not bad, f"{bad[:2]}")

        # A plain-mode UDP controller: the same jump, A held across it.
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(2.0)
        session = 0x5EED
        header = struct.pack("<BBBBI", 0x52, 1, 1, 0, session)
        s.sendto(header + struct.pack("<BQq", 0x01, 1_000_000, 0), ("127.0.0.1", udp_port))
        try:
            s.recvfrom(2048)
            opened = True
        except socket.timeout:
            opened = False
        check("a plain UDP controller opens a session", opened)
        times = [1_000_000 + 4_000 * k for k in range(50)]
        times += [times[-1] + JUMP, 2**64 - 1, 0, 2**63] + [times[-1] + JUMP + 4_000 * k for k in range(1, 25)]
        for seq, t in enumerate(times, start=1):
            buttons = 1 if 40 <= seq < 70 else 0
            s.sendto(header + struct.pack("<BIIQHB", 0x04, seq, 0, t, buttons, 0x03) + struct.pack("<ddd", 0.0, 0.1, 0.2)
                     + struct.pack("<3f", 0.0, 0.0, 3e38 if seq == 52 else 1.0), ("127.0.0.1", udp_port))
            time.sleep(0.004)
        s.sendto(header + struct.pack("<BB", 0x06, 0), ("127.0.0.1", udp_port))
        time.sleep(0.3)
        check("the host still answers a controller after the UDP controller's far-future and extreme samples",
              answers(udp_port, 0x5EE1))
    finally:
        if host.poll() is None:
            rc = interrupt(host)
            text = open(os.path.join(work, "host.err")).read()
            check("SIGINT stops it with exit 0", rc == 0, f"exit {rc}")
            check("... and its stop line (every held input released)", "every held input released" in text, text[-400:])
        else:
            text = open(os.path.join(work, "host.err")).read()
            check("the host did not die", False, f"exit {host.returncode}: {text[-600:]}")
        print(tally.summary())
        if not tally.failed:
            shutil.rmtree(work, ignore_errors=True)   # kept when something failed, to read


if __name__ == "__main__":
    main()
    sys.exit(1 if tally.failed else 0)
