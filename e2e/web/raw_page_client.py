"""A phone page's wire behaviour without a browser, stdlib only: `remotion host --inject log`
started and read as it writes, pairing through the link it prints, a WebSocket framed like
the page's (protocol.js), the host's control socket. Shared by the stall and blocked-reader
tests (e2e/web/stall_test.py, e2e/web/blocked_reader_test.py)."""
import base64
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

import consent

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import host_tls, interrupt  # noqa: E402  (the host's own CA, not checked; its stop)


class Checks:
    """'ok NAME' / 'FAIL NAME' lines and the closing 'N passed, N failed' (CI reads it)."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name} {detail}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}", flush=True)

    def finish(self, code=None):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(code if code is not None else (1 if self.failed else 0))


CHECKS = Checks()


class LogHost:
    """`remotion host --inject log` on loopback; `lines` are (monotonic time, line) as written.
    It opens a pairing window at start (--pair-at-start: the link goes only to its ready file)."""

    def __init__(self, binary, work, *flags):
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
        self.work = work
        self.data = os.path.join(work, "data")
        self.ready_file = os.path.join(work, "ready.json")
        self.proc = subprocess.Popen([binary, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "log",
                                      "--no-discovery", "--no-dashboard", "--web-port", "0", "--data-dir", self.data,
                                      "--pair-at-start", "--ready-file", self.ready_file, *flags], stdout=subprocess.PIPE,
                                     stderr=open(os.path.join(work, "host.err"), "w"), env=env, text=True)
        self.lines = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line.strip()))

    def url(self, timeout=60):
        """The pairing link from the host's ready file (its readiness signal), or None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if os.path.exists(self.ready_file):
                return json.load(open(self.ready_file)).get("pairingURL")
            time.sleep(0.05)
        return None

    def paired_phone(self, name, label="pairs through the link, accepted on the computer", checks=CHECKS):
        """Waits for the pairing link (the ready file) and pairs a phone through it as the page
        does, the host's user accepting it: (addr, port, device). No link ends the test."""
        link = self.url()
        if link is None:
            checks.check("the host is ready with a pairing link (its --ready-file)", False)
            checks.finish(1)
        addr, port, device = pair(link, name, self.data)
        checks.check(label, "credential" in device)
        return addr, port, device

    def events(self):
        """The log injector's JSON events: (time, event)."""
        return [(t, json.loads(l)) for t, l in list(self.lines) if l.startswith('{"session"')]

    def control(self, command):
        return consent.control(self.data, command)

    def stop(self):
        interrupt(self.proc, 10, signal.SIGTERM)


def post_json(addr, port, path, payload):
    """One POST to the page's origin: (status, JSON body)."""
    authority = f"{addr}:{port}"
    body = json.dumps(payload).encode()
    s = host_tls().wrap_socket(socket.create_connection((addr, port), timeout=10))
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: {authority}\r\nOrigin: https://{authority}\r\n"
              f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    reply = b""
    while chunk := s.recv(65536):
        reply += chunk
    s.close()
    head, _, text = reply.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(text or b"{}")


def pair(url, name, data_dir):
    """Pairs through the link as the page does (POST /api/pair, then /api/pair/wait with the
    ticket), the host's user accepting it through the control socket (e2e/web/consent.py):
    (addr, port, device {id, credential})."""
    m = re.match(r"https://([^/]+):(\d+)/#pair=([^&]+)&fp=", url)
    addr, port, secret = m.group(1), int(m.group(2)), m.group(3)
    status, asked = post_json(addr, port, "/api/pair", {"secret": secret, "name": name})
    if status != 202:
        return addr, port, asked
    consent.decide(data_dir, asked["code"], consent.request_of(data_dir, asked["code"]), True)
    for _ in range(100):
        status, answer = post_json(addr, port, "/api/pair/wait", {"ticket": asked["ticket"]})
        if status != 202:
            return addr, port, answer
        time.sleep(0.05)
    return addr, port, {}


class PageSocket:
    """The page's WebSocket: upgrade, hello with the device credential, frames as protocol.js
    writes them. `rcvbuf` shrinks the receive buffer before connecting (a phone that reads
    slowly, or not at all); `sndbuf` the send buffer (its sends block soon after the host
    stops reading)."""

    def __init__(self, addr, port, rcvbuf=None, sndbuf=None):
        authority = f"{addr}:{port}"
        raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if sndbuf:
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        raw.settimeout(10)
        raw.connect((addr, port))
        self.sock = host_tls().wrap_socket(raw)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET /ws HTTP/1.1\r\nHost: {authority}\r\nOrigin: https://{authority}\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        self.upgraded = b" 101 " in head.split(b"\r\n")[0]
        self.lock = threading.Lock()
        self.buffered = b""

    def send(self, payload, opcode):
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        with self.lock:
            self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send_json(self, obj):
        self.send(json.dumps(obj).encode(), 0x1)

    def frame(self):
        """The next text frame from the host (unmasked), as a dict when it is JSON; a ping on
        the way is answered."""
        while True:
            while len(self.buffered) < 2:
                self.buffered += self._recv()
            op, n, at = self.buffered[0] & 0x0F, self.buffered[1] & 0x7F, 2
            if n == 126:
                while len(self.buffered) < 4:
                    self.buffered += self._recv()
                n, at = struct.unpack(">H", self.buffered[2:4])[0], 4
            while len(self.buffered) < at + n:
                self.buffered += self._recv()
            payload, self.buffered = self.buffered[at:at + n], self.buffered[at + n:]
            if op == 0x1:
                try:
                    return json.loads(payload)
                except ValueError:
                    return {}
            if op == 0x9:
                self.send(payload, 0xA)

    def welcomed(self, device):
        """Sends the hello and reads frames until the welcome (or a refusal): True when welcomed.
        Unlike `hello`, the frames after it stay readable with `frame`."""
        self.send_json({"type": "hello", "v": 1, "id": device["id"], "credential": device["credential"]})
        while (kind := self.frame().get("type")) not in ("welcome", "refused"):
            pass
        return kind == "welcome"

    def _recv(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the host closed the page's WebSocket")
        return chunk

    def hello(self, device):
        """Sends the hello and reads until the welcome (or a refusal): True when welcomed."""
        self.send(json.dumps({"type": "hello", "v": 1, "id": device["id"], "credential": device["credential"]}).encode(), 0x1)
        first = b""
        while b"welcome" not in first and b"refused" not in first:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            first += chunk
        self.first = first
        return b"welcome" in first

    def close(self):
        try:
            self.send(b"", 0x8)
        except OSError:
            pass
        self.sock.close()


def motion(seq, yaw, buttons=0):
    # protocol.js encodeMotion: flags attitude|gyro, u16 buttons, u32 seq, f64 ms, roll pitch yaw, gyro, accel
    return struct.pack("<BBHId3f3f3f", 0x01, 0x03, buttons, seq & 0xFFFFFFFF, time.time() * 1000,
                       0.0, 0.0, yaw, 0.0, 0.0, 0.3, 0.0, 0.0, 0.0)


def button(index, down, state):
    return struct.pack("<BBBBHH", 0x02, index, 1 if down else 0, 0, state, 0)


def ping(page_time_ms=0.0):
    # protocol.js encodePing: type 3, pad, u16 rtt (0.1 ms units; 0 = none), u32 seq, f64 page time
    return struct.pack("<BBHId", 0x03, 0, 0, 0, page_time_ms)
