"""Shared by the e2e scripts that run a `remotion host` themselves (e2e/hostile,
e2e/gamepad): a pass/fail tally that prints one line per check, the wait for the host's
ready file (its readiness signal, never a log line), a bounded wait for any condition, and a
stop by SIGINT."""
import json
import os
import signal
import ssl
import subprocess
import time


def host_tls():
    """A TLS client context for the host's own web port. Its certificate comes from the host's
    local CA, which a phone trusts after downloading it; the tests skip that step and check
    sessions, not the chain."""
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE
    return tls


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        print(("PASS " if ok else "FAIL ") + name + (f" ({detail})" if detail and not ok else ""))
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def summary(self):
        return f"{self.passed} passed, {self.failed} failed"


def wait(pred, timeout=5.0, step=0.05):
    """`pred()`'s first truthy value within `timeout` seconds, else its last value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()


def wait_file(path, proc, seconds):
    """The ready file's JSON once it exists; None when `proc` exits first or time is up."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if os.path.exists(path):
            return json.load(open(path))
        if proc.poll() is not None:
            return None
        time.sleep(0.02)
    return None


def interrupt(proc, seconds=15, sig=signal.SIGINT):
    """SIGINT (the host's clean stop; SIGTERM is one too), SIGKILL after `seconds`; the exit status."""
    if proc.poll() is not None:
        return proc.returncode
    proc.send_signal(sig)
    try:
        return proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()
