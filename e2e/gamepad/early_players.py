#!/usr/bin/env python3
"""Every controller gets its pad however early it connects (docs/GAMEPAD.md, "Which
controllers get a pad").

Two DSU sources (this script's own server sockets on 127.0.0.1) stream from the moment
the host asks, and the host is `remotion host --gamepad dualsense --gamepad-sink null
--dsu A --dsu B` (the null sink stands in for /dev/uhid, which this kernel lacks: each
pad is made and its reports written to /dev/null). Both controllers connect while the
host starts. Once, the first source's controller arrived before the pads existed and
never got one (SDL saw one pad of two in the QEMU guest). Checks: both sources are
asked, and the stop line says two pads were made and none refused. Repeated ROUNDS
times, since the order is a race. Loopback only; bounded (about 2 s a round, 30 s at most
each). Prints 'N passed, N failed'.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "dsu"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import dsu_peer  # noqa: E402
from host_process import Tally, interrupt, wait_file  # noqa: E402

ROUNDS = 3
tally = Tally()
check = tally.check


class Source(threading.Thread):
    """A DSU server socket that answers the host's first pad request at once with a 250 Hz
    stream for `seconds` (slot 0, its own MAC), then stops."""

    def __init__(self, seconds, server_id):
        super().__init__(daemon=True)
        self.sock = dsu_peer.make_socket("127.0.0.1", 0)
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.seconds = seconds
        self.server_id = server_id
        self.asked = False
        self.stop = time.monotonic() + 30

    def run(self):
        client = None
        while client is None and time.monotonic() < self.stop:
            try:
                data, addr = self.sock.recvfrom(2048)
                _, kind, _ = dsu_peer.unseal(data, b"DSUC")
            except (socket.timeout, ValueError):
                continue
            if kind == dsu_peer.T_PAD:
                client, self.asked = addr, True
        if client is None:
            return
        end = time.monotonic() + self.seconds
        k = 0
        while time.monotonic() < end:
            k += 1
            payload = dsu_peer.pad_payload(0, k, k * 4_000, set(), (0.0, -1.0, 0.0), (0.0, 30.0, 0.0))
            try:
                self.sock.sendto(dsu_peer.seal(b"DSUS", self.server_id, dsu_peer.T_PAD, payload), client)
            except OSError:
                return
            time.sleep(0.004)


def one_round(binary, n):
    work = tempfile.mkdtemp(prefix="early-players-")
    a, b = Source(1.5, 100 + n), Source(1.5, 200 + n)
    a.start()
    b.start()
    ready = os.path.join(work, "ready.json")
    err_path = os.path.join(work, "host.err")
    host = subprocess.Popen([binary, "host", "--insecure", "--bind", "127.0.0.1", "--port", "0", "--inject", "log",
                             "--no-discovery", "--no-dashboard", "--no-web", "--gamepad", "dualsense",
                             "--gamepad-sink", "null", "--dsu", f"127.0.0.1:{a.port}", "--dsu", f"127.0.0.1:{b.port}",
                             "--data-dir", os.path.join(work, "data"), "--ready-file", ready],
                            stdout=subprocess.DEVNULL, stderr=open(err_path, "w"))
    try:
        info = wait_file(ready, host, 30)
        check(f"round {n}: the host with pads and two DSU sources becomes ready", info is not None)
        a.join(10)
        b.join(10)
        check(f"round {n}: the host asked both sources for their pads", a.asked and b.asked, f"{a.asked}, {b.asked}")
    finally:
        rc = interrupt(host) if host.poll() is None else None   # one that died by itself fails
        text = open(err_path).read()
        made = re.search(r"gamepad: (\d+) virtual DualSense pads made, (\d+) refused", text)
        check(f"round {n}: SIGINT stops it with exit 0", rc == 0, f"exit {rc if rc is not None else host.returncode}")
        check(f"round {n}: two pads made, none refused (each early controller got its own)",
              made is not None and made.group(1) == "2" and made.group(2) == "0",
              made.group(0) if made else text[-400:])
        if not tally.failed:
            shutil.rmtree(work, ignore_errors=True)   # kept when something failed, to read


def main():
    binary = sys.argv[1]
    for n in range(1, ROUNDS + 1):
        one_round(binary, n)
    print(tally.summary())


if __name__ == "__main__":
    main()
    sys.exit(1 if tally.failed else 0)
