#!/usr/bin/python3
"""A phone that asks to pair is shown as a desktop notification with Accept and Deny (the
front door for people at a desktop). Driven by scripts/notify-consent-test.sh: a private
session bus where python-dbusmock's notification_daemon template stands in for GNOME Shell or
KDE's server (a fake: no desktop runs here; it records the calls and emits the signals a
person's click would), and a `remotion host` on it. Phones are plain HTTPS clients speaking
the page's pairing requests. Runs under the system python (python3-dbus). Prints "N passed,
N failed".

Arguments: BIN DATA_DIR READY_FILE"""
import json, os, re, subprocess, sys, time

import dbus

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from host_process import Tally, wait  # noqa: E402
from pairing_phone import answered, ask, poll  # noqa: E402

tally = Tally()
check = tally.check
IFACE = "org.freedesktop.Notifications"


def main():
    binary, data, ready = sys.argv[1:4]
    mock = dbus.Interface(dbus.SessionBus().get_object(IFACE, "/org/freedesktop/Notifications"),
                          "org.freedesktop.DBus.Mock")
    # The template declares CloseNotification with an int32; the specification (and GNOME's and
    # KDE's servers) take a uint32, as the host sends. A server closes a notification it is
    # asked to close with reason 3.
    mock.AddMethod(IFACE, "CloseNotification", "u", "",
                   'self.EmitSignal("org.freedesktop.Notifications", "NotificationClosed", "uu", [args[0], 3])')

    def calls(method):
        return [list(c[1]) for c in mock.GetMethodCalls(method)]

    def notified(name):
        """(id, args) of the Notify call about `name`; ids count up from 1 in call order."""
        for i, args in enumerate(calls("Notify")):
            if name in str(args[4]):
                return i + 1, args
        return None

    def click(id, key):
        mock.EmitSignal(IFACE, "ActionInvoked", "us", [dbus.UInt32(id), key])

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
    first = shown[0] if shown else 0
    click(first, "accept")
    status = answered(origin, ticket)
    check("Accept on the notification pairs the phone", status == 200 and "Desk phone" in devices(), status)
    check("... and its notification is closed",
          wait(lambda: [first] in calls("CloseNotification"), 3), calls("CloseNotification"))

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
        click(shown[0], "deny")
    check("Deny on the notification: the phone is told no and nothing is stored",
          shown and answered(origin, ticket) == 403 and "Stranger" not in devices(), shown)

    origin, ticket, code = ask(link(), "Later")
    shown = wait(lambda: notified("Later"), 5)
    if shown:
        mock.EmitSignal(IFACE, "NotificationClosed", "uu", [dbus.UInt32(shown[0]), dbus.UInt32(2)])
    time.sleep(1.0)
    check("a notification the person dismissed is not shown again while the phone waits",
          shown and len([a for a in calls("Notify") if "Later" in str(a[4])]) == 1 and poll(origin, ticket) == 202,
          calls("Notify"))
    check("a notification's action on an unknown id answers nothing",
          (click(999, "accept"), time.sleep(0.5), poll(origin, ticket) == 202)[2])
    print(tally.summary())
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
