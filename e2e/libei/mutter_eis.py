#!/usr/bin/env python3
"""An EIS socket from mutter's own RemoteDesktop D-Bus API, for the libei stage only.

mutter offers org.gnome.Mutter.RemoteDesktop on the session bus with no dialog (the
portal's consent sits in front of it on a real desktop): CreateSession, then the session's
ConnectToEIS (keyboard and pointer) and Start. The socket is handed to COMMAND as an
inherited descriptor, its number in place of {fd} in the arguments; the session lives
while COMMAND runs (mutter ends it when this D-Bus connection closes) and is stopped after.
Prints the session's facts on stderr; exits with COMMAND's status.
  mutter_eis.py COMMAND ARG... ({fd} replaced)
"""
import subprocess
import sys

import dbus

NAME = 'org.gnome.Mutter.RemoteDesktop'
KEYBOARD, POINTER = 1, 2


def main():
    command = sys.argv[1:]
    if not command:
        sys.exit('usage: mutter_eis.py COMMAND ARG... ({fd} is the EIS socket)')
    bus = dbus.SessionBus()
    remote = bus.get_object(NAME, '/org/gnome/Mutter/RemoteDesktop')
    types = remote.Get(NAME, 'SupportedDeviceTypes', dbus_interface='org.freedesktop.DBus.Properties')
    path = dbus.Interface(remote, NAME).CreateSession()
    session = dbus.Interface(bus.get_object(NAME, path), NAME + '.Session')
    options = dbus.Dictionary({'device-types': dbus.UInt32(KEYBOARD | POINTER)}, signature='sv')
    fd = session.ConnectToEIS(options).take()
    session.Start()
    print(f'mutter-eis: device types {int(types)}, session {path}, EIS fd {fd}', file=sys.stderr, flush=True)
    try:
        rc = subprocess.call([a.replace('{fd}', str(fd)) for a in command], pass_fds=[fd])
    finally:
        try:
            session.Stop()
        except dbus.DBusException:
            pass   # mutter already ended it
    sys.exit(rc)


if __name__ == '__main__':
    main()
