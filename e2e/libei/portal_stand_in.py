#!/usr/bin/env python3
"""A RemoteDesktop portal for the libei stage only, standing in for xdg-desktop-portal with
xdg-desktop-portal-gnome, whose consent dialog needs GNOME Shell (not in a headless mutter).

It owns org.freedesktop.portal.Desktop on the stage's private session bus and answers
org.freedesktop.portal.RemoteDesktop version 2 the way the portal does: CreateSession,
SelectDevices, Start and ConnectToEIS, the first three through a Request object whose
Response signal comes after the call's reply. Behind it is mutter's own RemoteDesktop API,
as in mutter_eis.py: the EIS socket handed to the caller is mutter's.

The "dialog" is a file: WORK/portal.consent holds allow or deny, read at each Start that has
no valid restore token. A token is good for one start (the portal hands a new one each
time, as xdg-desktop-portal does); WORK/portal.revoke present: every stored token is
forgotten (the person revoked the permission). WORK/portal.forge present: before Start's
real Response, a second connection (another unique name) emits a Response with code 1 on the
caller's Request path, and waits for the bus to have routed it. Every call is a line in
WORK/portal.log.
  portal_stand_in.py WORK
"""
import os
import sys
import uuid

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = 'org.freedesktop.portal.Desktop'
PATH = '/org/freedesktop/portal/desktop'
IFACE = 'org.freedesktop.portal.RemoteDesktop'
MUTTER = 'org.gnome.Mutter.RemoteDesktop'


def log(work, line):
    with open(os.path.join(work, 'portal.log'), 'a') as f:
        f.write(line + '\n')


def sender_element(sender):
    return sender.lstrip(':').replace('.', '_')


class Request(dbus.service.Object):
    @dbus.service.signal('org.freedesktop.portal.Request', signature='ua{sv}')
    def Response(self, code, results):
        pass


class Session(dbus.service.Object):
    def __init__(self, bus, path, mutter_session):
        super().__init__(bus, path)
        self.mutter = mutter_session
        self.restore = ''
        self.eis = None            # mutter's socket, taken before its Start as mutter_eis.py does

    @dbus.service.method('org.freedesktop.portal.Session', in_signature='', out_signature='')
    def Close(self):
        self.end()

    def end(self):
        if self.mutter is None:
            return
        try:
            self.mutter.Stop()
        except dbus.DBusException:
            pass   # mutter ended it already
        self.mutter = None
        if self.eis is not None:
            os.close(self.eis)
            self.eis = None
        self.remove_from_connection()


class Portal(dbus.service.Object):
    def __init__(self, bus, work):
        super().__init__(bus, PATH)
        self.bus = bus
        self.work = work
        self.sessions = {}
        self.tokens = set()

    def flag(self, name):
        return os.path.exists(os.path.join(self.work, name))

    def respond(self, sender, token, code, results, forge=False):
        """The Request at the caller's path; its Response after this call's reply is sent."""
        path = f'{PATH}/request/{sender_element(sender)}/{token}'
        request = Request(self.bus, path)

        def later():
            if forge:
                other = dbus.bus.BusConnection(os.environ['DBUS_SESSION_BUS_ADDRESS'])
                Request(other, path).Response(dbus.UInt32(1), dbus.Dictionary({}, signature='sv'))
                # The bus has routed the forged signal once it answers this connection's next call.
                other.call_blocking('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetId', '', ())
                log(self.work, f'forged Response 1 from {other.get_unique_name()} on {path}')
                other.close()
            request.Response(dbus.UInt32(code), dbus.Dictionary(results, signature='sv'))
            request.remove_from_connection()
            return False
        GLib.idle_add(later)
        return dbus.ObjectPath(path)

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='ss', out_signature='v')
    def Get(self, interface, prop):
        if interface == IFACE and prop == 'version':
            return dbus.UInt32(2)
        if interface == IFACE and prop == 'AvailableDeviceTypes':
            return dbus.UInt32(3)
        raise dbus.DBusException('no such property', name='org.freedesktop.DBus.Error.InvalidArgs')

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        return {'version': dbus.UInt32(2), 'AvailableDeviceTypes': dbus.UInt32(3)} if interface == IFACE else {}

    @dbus.service.method(IFACE, in_signature='a{sv}', out_signature='o', sender_keyword='sender')
    def CreateSession(self, options, sender):
        remote = self.bus.get_object(MUTTER, '/org/gnome/Mutter/RemoteDesktop')
        mutter_path = dbus.Interface(remote, MUTTER).CreateSession()
        mutter = dbus.Interface(self.bus.get_object(MUTTER, mutter_path), MUTTER + '.Session')
        path = f'{PATH}/session/{sender_element(sender)}/{options["session_handle_token"]}'
        self.sessions[path] = Session(self.bus, path, mutter)
        # As the portal does: the session ends when its caller leaves the bus.
        watch = []

        def gone(owner):
            if owner == '' and path in self.sessions:
                self.sessions.pop(path).end()
                log(self.work, f'session of {sender} ended: it left the bus')
                watch[0].cancel()
        watch.append(self.bus.watch_name_owner(sender, gone))
        log(self.work, f'create-session {sender}')
        return self.respond(sender, options['handle_token'], 0, {'session_handle': path})

    @dbus.service.method(IFACE, in_signature='oa{sv}', out_signature='o', sender_keyword='sender')
    def SelectDevices(self, session, options, sender):
        token = str(options.get('restore_token', ''))
        self.sessions[str(session)].restore = token
        log(self.work, f'select-devices types={int(options.get("types", 0))} persist_mode={int(options.get("persist_mode", 0))} '
                       f'restore_token={token or "none"}')
        return self.respond(sender, options['handle_token'], 0, {})

    @dbus.service.method(IFACE, in_signature='osa{sv}', out_signature='o', sender_keyword='sender')
    def Start(self, session, parent, options, sender):
        s = self.sessions[str(session)]
        if self.flag('portal.revoke'):
            self.tokens.clear()
        if s.restore and s.restore in self.tokens:
            self.tokens.discard(s.restore)
            decision = 'allow'
            log(self.work, 'start honoured the restore token: no dialog')
        else:
            with open(os.path.join(self.work, 'portal.consent')) as f:
                decision = f.read().strip()
            log(self.work, f'start asked the person: {decision}')
        forge = self.flag('portal.forge')
        if decision != 'allow':
            return self.respond(sender, options['handle_token'], 1, {}, forge=forge)
        s.eis = s.mutter.ConnectToEIS(dbus.Dictionary({'device-types': dbus.UInt32(3)}, signature='sv')).take()
        s.mutter.Start()
        token = str(uuid.uuid4())
        self.tokens.add(token)
        log(self.work, f'issued restore token {token}')
        return self.respond(sender, options['handle_token'], 0,
                            {'devices': dbus.UInt32(3), 'persist_mode': dbus.UInt32(2), 'restore_token': token},
                            forge=forge)

    @dbus.service.method(IFACE, in_signature='oa{sv}', out_signature='h', sender_keyword='sender')
    def ConnectToEIS(self, session, options, sender):
        s = self.sessions[str(session)]
        if s.eis is None:
            raise dbus.DBusException('the session is not started', name='org.freedesktop.DBus.Error.AccessDenied')
        fd = dbus.types.UnixFd(s.eis)   # a duplicate
        os.close(s.eis)
        s.eis = None
        log(self.work, f'connect-to-eis {sender}')
        return fd


def main():
    work = sys.argv[1]
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = Portal(bus, work)
    # Readiness: the name is owned from here on (while this reference lives: dbus-python
    # releases a BusName that is collected).
    name = dbus.service.BusName(NAME, bus)
    log(work, f'ready {bus.get_unique_name()}')
    GLib.MainLoop().run()
    del portal, name


if __name__ == '__main__':
    main()
