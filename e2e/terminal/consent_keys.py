#!/usr/bin/env python3
"""A key in the host's terminal view answers the phone it shows. Driven by
scripts/terminal-consent-test.sh, which runs `remotion host` in a tmux pane; here a phone
(a plain HTTPS client speaking the page's pairing requests) asks to pair and keys are typed
into the pane with `tmux send-keys` or pasted with `tmux paste-buffer -p` (bracketed when the
view asked for it). Only a key pressed alone answers. Prints "N passed, N failed".

Arguments: BIN DATA_DIR READY_FILE TMUX_SESSION [CAPTURE_FILE]; REMOTION_TMUX_SOCKET: the tmux server's socket"""
import json, os, re, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import Tally, wait  # noqa: E402
from pairing_phone import answered, ask, poll  # noqa: E402

tally = Tally()
check = tally.check


def main():
    binary, data, ready, session = sys.argv[1:5]
    tmux = ["tmux", "-S", os.environ["REMOTION_TMUX_SOCKET"]] if os.environ.get("REMOTION_TMUX_SOCKET") else ["tmux"]

    def screen():
        return subprocess.run(tmux + ["capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

    def keys(*k):
        subprocess.run(tmux + ["send-keys", "-t", session, *k], check=True)

    def link():
        out = subprocess.run([binary, "pair", "--web", "--data-dir", data], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL).stdout
        return (re.findall(r"pair a phone: (\S+)", out) or [""])[0]

    def devices():
        return subprocess.run([binary, "devices", "--data-dir", data], capture_output=True, text=True).stdout

    url = json.load(open(ready))["pairingURL"]
    origin, ticket, code = ask(url, "Tmux phone")
    top = wait(lambda: (lambda s: s if "asks to pair" in s.splitlines()[0] else None)(screen()), 3) or screen()
    lines = top.splitlines()
    check("the view shows the waiting phone on top: name, address, code and the keys",
          code and re.match(r"▶ phone 'Tmux phone' at 127\.0\.0\.1 asks to pair · code %s · \d+ s left" % code, lines[0])
          and lines[1].strip().startswith("a accept · d deny"), lines[:2])
    keys("a")   # at once: the prompt has been on the screen less than a second
    time.sleep(0.5)
    check("a key pressed within a second of the prompt appearing answers nothing", poll(origin, ticket) == 202)
    time.sleep(1.0)
    keys("a")
    status = answered(origin, ticket, 3.0)
    check("a (after the prompt settled) accepts: the phone collects its credential", status == 200, status)
    check("the prompt goes and remotion devices lists the phone",
          wait(lambda: "asks to pair" not in screen(), 2) and "Tmux phone" in devices(), devices())

    origin, ticket, code = ask(link(), "Stranger")
    wait(lambda: "'Stranger'" in screen(), 3)
    time.sleep(1.2)
    keys("Left")   # ESC [ D: an arrow key's sequence, not a d
    time.sleep(0.5)
    check("an arrow key answers nothing", poll(origin, ticket) == 202)
    keys("d")
    denied = answered(origin, ticket, 3.0)
    check("d denies: the phone is told no and nothing is stored", denied == 403 and "Stranger" not in devices(),
          (denied, devices()))

    # Only a key pressed alone answers: a word typed in one go, a paste of a lone "a" and a
    # paste of lines full of a and y leave the phone waiting; then a lone a accepts it.
    origin, ticket, code = ask(link(), "Typist")
    wait(lambda: "'Typist'" in screen(), 3)
    time.sleep(1.2)
    keys("-l", "cat")   # one write: the three bytes arrive in one read
    time.sleep(0.5)
    check("'cat' typed in one go answers nothing", poll(origin, ticket) == 202)
    for text in ["a", "yes\na\nall\n"]:
        subprocess.run(tmux + ["set-buffer", "-b", "consent", text], check=True)
        subprocess.run(tmux + ["paste-buffer", "-p", "-b", "consent", "-t", session], check=True)
        time.sleep(0.5)
        check("a bracketed paste of %r answers nothing" % text, poll(origin, ticket) == 202)
    keys("a")
    status = answered(origin, ticket, 3.0)
    check("then a lone a accepts", status == 200, status)
    open(sys.argv[5] if len(sys.argv) > 5 else "/dev/null", "w").write(screen())

    print(tally.summary())
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
