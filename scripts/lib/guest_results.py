"""What the QEMU guest stages' checkers share (kernel_guest_check.py, localpads_guest_check.py):
the results folder the guest wrote, its facts file (KEY=VALUE lines), and the ok/FAIL lines
with the "N passed, N failed" summary the suite reads."""
import os
import sys


class GuestResults:
    def __init__(self, folder):
        self.folder = folder
        self.passed = self.failed = 0
        self.facts = self.pairs("facts")

    def read(self, name):
        path = os.path.join(self.folder, name)
        return open(path, errors="replace").read() if os.path.exists(path) else ""

    def pairs(self, name):
        """A KEY=VALUE file as a dict (facts, guest.env)."""
        return dict(line.split("=", 1) for line in self.read(name).splitlines() if "=" in line)

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""))

    def check_ran(self):
        """The guest booted, its test inside finished, and no wait inside it timed out."""
        self.check("the guest booted Debian's kernel", bool(self.read("booted").strip()), "no booted marker")
        rc = self.read("inside.rc").strip()
        self.check("the test inside the guest finished", rc == "0", f"exit {rc!r}")
        for key, value in self.facts.items():
            if key == "timeout":
                self.check(f"guest wait: {value}", False, "timed out")

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        sys.exit(1 if self.failed else 0)
