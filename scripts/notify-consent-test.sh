#!/usr/bin/env bash
# A phone that asks to pair is shown as a desktop notification with Accept and Deny
# (e2e/notify/notify_consent.py): `remotion host` (log injector, no display) on a private
# session bus where python-dbusmock's notification_daemon stands in for the desktop's
# notification server (a fake: no desktop session runs here). Accept and Deny on the
# notification, an answer given elsewhere closing it, a dismissed one not shown again; only the
# server answers (a signal from another connection, an old id after the server restarts: the
# script's mock is stopped and a second one started), a too-early Accept is not taken, and a
# phone's name reaches the body escaped.
# Inside a new network namespace that has only lo. Prints 'N passed, N failed'.
#   REMOTION_SKIP_BUILD=1 scripts/notify-consent-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns notify-consent-test "dbus-daemon gdbus py:dbusmock py:dbus" "$@"

stage_workdir remotion-notify-consent
fail() { echo "notify-consent-test: $1"; for f in "$work"/*.err; do echo "--- $f"; tail -8 "$f"; done; echo "0 passed, 1 failed"; exit 1; }

# A session bus of our own: its socket appears when it listens.
dbus-daemon --session --address="unix:path=$work/bus" --nofork --nopidfile 2>"$work/bus.err" & pids+=($!)
for _ in $(seq 100); do [[ -S $work/bus ]] && break; sleep 0.05; done
[[ -S $work/bus ]] || fail "the session bus did not start"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
/usr/bin/python3 -m dbusmock --template notification_daemon >"$work/mock.out" 2>"$work/mock.err" & mock=$!
pids+=("$mock")
owned() { gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
            --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications 2>/dev/null | grep -q true; }
for _ in $(seq 100); do owned && break; sleep 0.05; done
owned || fail "the mock notification server did not take its name"

host_env=(-u DISPLAY -u WAYLAND_DISPLAY REMOTION_NO_UINPUT=1 HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config")
start_stage_host notify-consent-test pairingURL --dashboard-port 0 --web-port 0 --pair-at-start --inject log

timeout 60 /usr/bin/python3 e2e/notify/notify_consent.py "$REMOTION_BIN" "$work/data" "$work/ready.json" "$mock"
rc=$?
stop_pid "$host_pid" INT
[[ $rc -ne 0 ]] && { echo "--- host stderr"; tail -12 "$work/host.err"; echo "--- mock"; tail -5 "$work/mock.err"; }
exit $rc
