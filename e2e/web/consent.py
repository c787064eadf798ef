#!/usr/bin/env python3
"""The person at the computer, for tests: a phone that redeems a pairing link waits until
the host's user accepts it (docs/SECURITY.md §9). Tests that are about something else let
this accept every waiting phone through the host's control socket (0600, the same user),
as `remotion devices --accept CODE-ID` would.

    python3 e2e/web/consent.py DATA_DIR [SECONDS]     # accepts every phone for SECONDS (300)

or, in a test, `accept_all(data_dir)` (a daemon thread) and `decide(data_dir, code, request, accept)`
(a decision names the request by its code and id, as the host's prompt shows them).
It stops by itself after SECONDS; a missing socket (the host not up yet, or gone) is retried."""
import json
import os
import socket
import sys
import threading
import time


def control(data_dir, command, **fields):
    c = socket.socket(socket.AF_UNIX)
    c.settimeout(5)
    c.connect(os.path.join(data_dir, "control.sock"))
    c.sendall((json.dumps({"command": command, **fields}) + "\n").encode())
    data = b""
    while not data.endswith(b"\n"):
        chunk = c.recv(65536)
        if not chunk:
            break
        data += chunk
    c.close()
    return json.loads(data)


def waiting(data_dir):
    """The phones waiting for an answer: [{code, request, link, name, address, seconds}]."""
    return control(data_dir, "web-pair-requests").get("requests", [])


def decide(data_dir, code, request, accept=True):
    return control(data_dir, "web-pair-decide", code=code, request=request, accept=accept)


def request_of(data_dir, code):
    """The id of the waiting request with this code (the phone knows only its code)."""
    return next((r["request"] for r in waiting(data_dir) if r["code"] == code), "")


def accept_all(data_dir, seconds=300.0, every=0.1):
    """Accepts every waiting phone until `seconds` have passed (a daemon thread)."""
    def run():
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                for r in waiting(data_dir):
                    decide(data_dir, r["code"], r["request"], True)
            except (OSError, ValueError):
                pass
            time.sleep(every)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


if __name__ == "__main__":
    accept_all(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 300.0).join()
