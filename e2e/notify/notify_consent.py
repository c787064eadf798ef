#!/usr/bin/python3
"""A phone that asks to pair is shown as a desktop notification with Accept and Deny (the
front door for people at a desktop). Driven by scripts/notify-consent-test.sh: a private
session bus where python-dbusmock's notification_daemon template stands in for GNOME Shell or
KDE's server (a fake: no desktop runs here; it records the calls and emits the signals a
person's click would), and a `remotion host` on it. Phones are plain HTTPS clients speaking
the page's pairing requests. Runs under the system python (python3-dbus). Prints "N passed,
N failed".

Arguments: BIN DATA_DIR READY_FILE SERVER_PID (the first notification server, which the
restart check stops)"""
import json, os, re, signal as signal_module, subprocess, sys, time

import dbus
import dbus.lowlevel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import Tally, wait  # noqa: E402
from pairing_phone import answered, ask, poll  # noqa: E402

tally = Tally()
check = tally.check
IFACE = "org.freedesktop.Notifications"


def main():
    binary, data, ready, first_server = sys.argv[1:5]
    bus = dbus.SessionBus()
    server = {"mock": None}

    def attach():
        """The notification server now on the bus, as a mock (a proxy follows one owner)."""
        mock = dbus.Interface(bus.get_object(IFACE, "/org/freedesktop/Notifications"), "org.freedesktop.DBus.Mock")
        # The template declares CloseNotification with an int32; the specification (and GNOME's
        # and KDE's servers) take a uint32, as the host sends. A server closes a notification it
        # is asked to close with reason 3.
        mock.AddMethod(IFACE, "CloseNotification", "u", "",
                       'self.EmitSignal("org.freedesktop.Notifications", "NotificationClosed", "uu", [args[0], 3])')
        server["mock"] = mock

    attach()

    def calls(method):
        return [list(c[1]) for c in server["mock"].GetMethodCalls(method)]

    def notified(name, after=0):
        """(id, args) of the newest Notify call about `name` with an id above `after`; ids
        count up from 1 in call order on each server."""
        found = [(i + 1, args) for i, args in enumerate(calls("Notify")) if name in str(args[4])]
        found = [f for f in found if f[0] > after]
        return found[-1] if found else None

    def click(id, key):
        server["mock"].EmitSignal(IFACE, "ActionInvoked", "us", [dbus.UInt32(id), key])

    def settled():
        """A notification answers only once it has been up for the terminal view's settle (1 s)."""
        time.sleep(1.3)

    def devices(*extra):
        return subprocess.run([binary, "devices", "--data-dir", data, *extra], capture_output=True, text=True).stdout

    def link():
        out = subprocess.run([binary, "pair", "--web", "--data-dir", data], capture_output=True, text=True,
                             stdin=subprocess.DEVNULL).stdout
        return (re.findall(r"pair a phone: (\S+)", out) or [""])[0]

    url = json.load(open(ready))["pairingURL"]
    origin, ticket, code = ask(url, "Desk phone")
    shown = wait(lambda: notified("Desk phone"), 5)
    check("a phone that asks to pair is shown as a notification with the code it shows",
          shown and code and str(shown[1][0]) == "Remotion" and code in str(shown[1][4]), shown)
    check("... with Accept and Deny", shown and [str(a) for a in shown[1][5]] == ["accept", "Accept", "deny", "Deny"],
          shown and shown[1][5])
    listed = [l for l in devices().splitlines() if "Desk phone" in l]
    check("nothing is stored while it waits: remotion devices lists it as waiting only",
          len(listed) == 1 and re.match(r"\s+\d{4}-[0-9a-f]{8}  'Desk phone'", listed[0]), listed)
    early = shown[0] if shown else 0
    click(early, "accept")
    again = wait(lambda: notified("Desk phone", after=early), 5)
    check("an Accept sooner than a second after the notification showed is not taken: the phone still waits",
          poll(origin, ticket) == 202, devices())
    check("... and it is shown again (the first closed, a new one with its own second)",
          again and [early] in calls("CloseNotification"), (calls("Notify"), calls("CloseNotification")))
    first = again[0] if again else early
    settled()
    click(first, "accept")
    status = answered(origin, ticket)
    check("Accept on the notification pairs the phone", status == 200 and "Desk phone" in devices(), status)
    check("... and its notification is closed",
          wait(lambda: [first] in calls("CloseNotification"), 3), calls("CloseNotification"))

    # Only the notification server may answer: an ActionInvoked signal any other program on the
    # session bus emits for the shown id is not taken. The server's own Deny sent after it (the
    # bus routes it later: the forger's next call returns only after its signal was routed) is
    # the answer the phone gets.
    origin, ticket, code = ask(link(), "Forged")
    shown = wait(lambda: notified("Forged"), 5)
    settled()
    forger = dbus.SessionBus(private=True)
    if shown:
        signal = dbus.lowlevel.SignalMessage("/org/freedesktop/Notifications", IFACE, "ActionInvoked")
        signal.append(dbus.UInt32(shown[0]), "accept", signature="us")
        forger.send_message(signal)
        forger.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetId(dbus_interface="org.freedesktop.DBus")
        click(shown[0], "deny")
    forger.close()
    check("an Accept signal from another connection on the bus is not taken: the server's Deny after it answers",
          shown and answered(origin, ticket) == 403 and "Forged" not in devices(), shown)

    origin, ticket, code = ask(link(), "Elsewhere")
    shown = wait(lambda: notified("Elsewhere"), 5)
    check("a second phone gets its own notification", bool(shown), calls("Notify"))
    waiting = re.findall(r"(\d{4}-[0-9a-f]{8})", devices())
    subprocess.run([binary, "devices", "--data-dir", data, "--deny", waiting[0] if waiting else "0000-00000000"],
                   capture_output=True, text=True)
    check("answered elsewhere (remotion devices --deny): the phone is told no",
          answered(origin, ticket) == 403, waiting)
    check("... and the notification goes",
          shown and wait(lambda: [shown[0]] in calls("CloseNotification"), 3), calls("CloseNotification"))

    origin, ticket, code = ask(link(), "Stranger")
    shown = wait(lambda: notified("Stranger"), 5)
    if shown:
        settled()
        click(shown[0], "deny")
    check("Deny on the notification: the phone is told no and nothing is stored",
          shown and answered(origin, ticket) == 403 and "Stranger" not in devices(), shown)

    # The body is markup on servers with body-markup (KDE, dunst, mako): a phone's name is text.
    hostile = '<a href="https://x.invalid">pay</a> & co'
    origin, ticket, code = ask(link(), hostile)
    shown = wait(lambda: notified("x.invalid"), 5)
    body, summary = (str(shown[1][4]), str(shown[1][3])) if shown else ("", "")
    check("a phone's name reaches the body escaped: no markup from outside",
          '&lt;a href="https://x.invalid"&gt;pay&lt;/a&gt; &amp; co' in body and "<" not in body
          and ">" not in body and "& " not in body, body)
    check("... and the summary carries nothing from the phone", summary and "x.invalid" not in summary
          and not set("<>&") & set(summary), summary)
    waiting = re.findall(r"(\d{4}-[0-9a-f]{8})", devices())
    for reference in waiting:
        subprocess.run([binary, "devices", "--data-dir", data, "--deny", reference], capture_output=True, text=True)
    answered(origin, ticket)

    origin, ticket, code = ask(link(), "Later")
    shown = wait(lambda: notified("Later"), 5)
    if shown:
        server["mock"].EmitSignal(IFACE, "NotificationClosed", "uu", [dbus.UInt32(shown[0]), dbus.UInt32(2)])
    time.sleep(1.0)
    check("a notification the person dismissed is not shown again while the phone waits",
          shown and len([a for a in calls("Notify") if "Later" in str(a[4])]) == 1 and poll(origin, ticket) == 202,
          calls("Notify"))
    check("a notification's action on an unknown id answers nothing",
          (click(999, "accept"), time.sleep(0.5), poll(origin, ticket) == 202)[2])
    subprocess.run([binary, "devices", "--data-dir", data, "--deny",
                    (re.findall(r"(\d{4}-[0-9a-f]{8})", devices()) or ["0000-00000000"])[0]], capture_output=True)
    answered(origin, ticket)

    # The notification server restarts (a new owner of the name, its ids from 1 again): what the
    # old one showed is forgotten and shown again on the new one; an old id answers nothing,
    # even from the new server.
    origin, ticket, code = ask(link(), "Restarted")
    shown = wait(lambda: notified("Restarted"), 5)
    old = shown[0] if shown else 0
    owner = lambda: bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").NameHasOwner(
        IFACE, dbus_interface="org.freedesktop.DBus")
    os.kill(int(first_server), signal_module.SIGTERM)
    check("the first notification server went away", wait(lambda: not owner(), 5))
    second = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--template", "notification_daemon"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        check("a new notification server took the name", wait(owner, 10))
        attach()
        again = wait(lambda: notified("Restarted"), 5)
        check("the waiting phone is shown again on the new server", bool(again), calls("Notify"))
        settled()
        click(old, "accept")            # the old server's id, now from the new server
        click(again[0] if again and again[0] != old else 9999, "deny")
        check("the old server's id answers nothing: the new notification's Deny after it is the answer",
              old > 1 and answered(origin, ticket) == 403 and "Restarted" not in devices(), (old, again))
    finally:
        second.terminate()
        second.wait(10)
    print(tally.summary())
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
