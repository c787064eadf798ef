#!/usr/bin/env python3
"""A dashboard WebSocket client for the latency measurement (stdlib only): connects to
ws://127.0.0.1:PORT/ws and reads every frame for SECONDS, or with --stuck never reads
(a stuck browser). Prints how many messages and bytes it read."""
import argparse
import base64
import os
import socket
import time

p = argparse.ArgumentParser()
p.add_argument("--port", type=int, required=True)
p.add_argument("--seconds", type=float, default=10)
p.add_argument("--stuck", action="store_true")
a = p.parse_args()
s = socket.create_connection(("127.0.0.1", a.port), timeout=5)
key = base64.b64encode(os.urandom(16)).decode()
s.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{a.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
if a.stuck:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    time.sleep(a.seconds)
    print("stuck reader: read nothing")
else:
    buf, frames, total = b"", 0, 0
    end = time.monotonic() + a.seconds
    s.settimeout(0.2)
    while time.monotonic() < end:
        try:
            chunk = s.recv(1 << 16)
        except socket.timeout:
            continue
        if not chunk:
            break
        total += len(chunk)
        buf += chunk
        if b"\r\n\r\n" in buf and frames == 0 and buf.startswith(b"HTTP/1.1"):
            buf = buf.split(b"\r\n\r\n", 1)[1]
        while len(buf) >= 2:
            n, off = buf[1] & 0x7F, 2
            if n == 126:
                if len(buf) < 4: break
                n, off = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10: break
                n, off = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < off + n: break
            buf, frames = buf[off + n:], frames + 1
    print(f"reader: {frames} messages, {total} bytes")
s.close()
