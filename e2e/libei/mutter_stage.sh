#!/bin/sh
# Inside the Debian 13 root, as the unprivileged user, under dbus-run-session (a private
# session bus): mutter 48 headless with one virtual monitor and a witness client fullscreen
# on it. MODE probe: an EIS client through mutter's own RemoteDesktop API sends a script of
# input (probe.out, probe.err), then mutter is stopped under a second one (drop.out). MODE
# host: the host itself injects through that API's EIS socket (below).
# Everything lands in WORK (mutter.log, witness.log, ...); scripts/libei-mutter-test.sh
# reads the logs and decides.
#   mutter_stage.sh WORK probe|host|portal
set -u
work=$1 mode=$2 here=$(dirname "$0")
export XDG_RUNTIME_DIR=$work/run
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
mutter --headless --virtual-monitor 1280x720 --wayland-display=wayland-remotion --no-x11 >"$work/mutter.log" 2>&1 &
mutter=$!
witness=""
stop() { [ -n "$witness" ] && kill "$witness" 2>/dev/null; kill "$mutter" 2>/dev/null; wait; }
trap stop EXIT
# Readiness: mutter owns the RemoteDesktop name once its backend is up.
timeout 60 gdbus wait --session --timeout 60 org.gnome.Mutter.RemoteDesktop || { echo "no RemoteDesktop name"; exit 1; }
for _ in $(seq 200); do [ -S "$XDG_RUNTIME_DIR/wayland-remotion" ] && break; sleep 0.05; done
WAYLAND_DISPLAY=wayland-remotion WITNESS_FULLSCREEN=1 "$work/wl-witness" remotion-witness >"$work/witness.log" 2>&1 &
witness=$!
for _ in $(seq 200); do grep -q '^ready 1280 720' "$work/witness.log" && break; sleep 0.05; done
if [ "$mode" = probe ]; then
    # mutter's seat has a pointer and a keyboard only once an EIS client's devices exist, and
    # the witness binds them when the seat says so: a first motion, then the script once the
    # witness has both and the keyboard focus.
    mkfifo "$work/probe.in"
    python3 "$here/mutter_eis.py" "$work/ei-probe" '{fd}' <"$work/probe.in" >"$work/probe.out" 2>"$work/probe.err" &
    probe=$!
    exec 4>"$work/probe.in"
    printf 'move 1 1\nsync\n' >&4
    for _ in $(seq 600); do grep -q '^seat pointer 1 keyboard 1' "$work/witness.log" && grep -q '^keyboard-enter' "$work/witness.log" && break; sleep 0.05; done
    # The pointer's focus: mutter sends the witness's wl_pointer its enter on a motion after the
    # pointer was bound; when the first motion came before the bind (a busy machine), it never
    # does. So nudge it until the witness says the pointer entered (its readiness, not a sleep).
    for i in $(seq 60); do
        grep -q '^enter ' "$work/witness.log" && break
        printf 'move %d 1\nsync\n' $((i % 2 + 2)) >&4
        for _ in $(seq 10); do grep -q '^enter ' "$work/witness.log" && break; sleep 0.05; done
    done
    cat "$work/commands" >&4
    exec 4>&-
    wait "$probe"; echo "probe exit $?" >>"$work/probe.out"
    # What the witness got arrives after the probe's round trip: wait for its last expected line.
    for _ in $(seq 600); do grep -q '^axis 0' "$work/witness.log" && break; sleep 0.05; done
fi
# MODE host: the host ($work/remotion), paired with a client in the same root, started with
# mutter's EIS socket handed down (REMOTION_EIS_FD) and `--inject auto` (which picks libei for
# a handed socket), fed by the client
# (a circle, A pressed); then mutter stopped under it mid-stream: the host must say so in
# one line and keep running (host.alive), then stop on SIGTERM.
if [ "$mode" = host ]; then
    r=$work/remotion
    "$r" pair --listen --yes --bind 127.0.0.1 --port 0 --window 60 >"$work/pair.out" 2>"$work/pair.err" &
    listener=$!
    code=""
    for _ in $(seq 400); do code=$(grep -m1 '^remotion-pair:' "$work/pair.out"); [ -n "$code" ] && break; sleep 0.05; done
    "$r" pair "$code" --name libei-stage --data-dir "$work/client-keys" >/dev/null 2>"$work/pair-client.err"
    wait "$listener"
    python3 "$here/mutter_eis.py" env REMOTION_EIS_FD='{fd}' "$r" host --bind 127.0.0.1 --port 0 --inject auto \
        --no-discovery --no-dashboard --ready-file "$work/ready.json" >"$work/host.out" 2>"$work/host.err" &
    host=$!
    for _ in $(seq 600); do [ -s "$work/ready.json" ] && break; sleep 0.05; done
    port=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["udpPort"])' "$work/ready.json" 2>/dev/null)
    "$r" client --host "127.0.0.1:$port" --data-dir "$work/client-keys" --source synthetic:circle \
        --duration 2 --press A@0.5+0.5 >"$work/client.out" 2>"$work/client.err"
    echo "client exit $?" >>"$work/client.out"
    for _ in $(seq 200); do grep -q '^button 272 0' "$work/witness.log" && break; sleep 0.05; done
    cp "$work/witness.log" "$work/witness.host.log"
    # mutter goes mid-stream: a second client streams while it is stopped.
    "$r" client --host "127.0.0.1:$port" --data-dir "$work/client-keys" --source synthetic:circle \
        --duration 3 >"$work/client2.out" 2>"$work/client2.err" &
    client=$!
    lines=$(wc -l <"$work/witness.log")
    for _ in $(seq 200); do [ "$(wc -l <"$work/witness.log")" -gt $((lines + 10)) ] && break; sleep 0.05; done
    kill "$witness"; witness=""
    kill "$mutter"; wait "$mutter"
    wait "$client"; echo "client exit $?" >>"$work/client2.out"
    # The host's pid is the driver's child: alive after the loss, then stopped with SIGTERM.
    hostpid=$(cat /proc/$host/task/$host/children 2>/dev/null | awk '{print $1}')
    if [ -n "$hostpid" ] && kill -0 "$hostpid" 2>/dev/null; then echo "alive" >"$work/host.alive"; kill -TERM "$hostpid"; fi
    wait "$host"; echo "host exit $?" >>"$work/host.alive"
    exit 0
fi
# MODE portal: the host asks the RemoteDesktop portal for its EIS socket (GNOME on Wayland,
# `--inject auto`, no socket handed). The portal is portal_stand_in.py, standing in for
# xdg-desktop-portal-gnome (whose consent dialog needs GNOME Shell) over mutter's own API;
# its "dialog" answers from portal.consent. Four starts of the host, each fed a circle and A:
#   first   no token stored: Start asks (allow), the token is stored, the host injects
#   second  the stored token: the portal answers without asking; a forged Response (code 1,
#           another sender) comes first and must be ignored; the host injects
#   refused the permission revoked and the person declines: one line, no injection, exit 1
#           (auto falls back, and this root has no uinput)
# Each start's witness lines go to witness.NAME.log, its output to host.NAME.{out,err}.
if [ "$mode" = portal ]; then
    r=$work/remotion
    "$r" pair --listen --yes --bind 127.0.0.1 --port 0 --window 60 >"$work/pair.out" 2>"$work/pair.err" &
    listener=$!
    code=""
    for _ in $(seq 400); do code=$(grep -m1 '^remotion-pair:' "$work/pair.out"); [ -n "$code" ] && break; sleep 0.05; done
    "$r" pair "$code" --name portal-stage --data-dir "$work/client-keys" >/dev/null 2>"$work/pair-client.err"
    wait "$listener"
    echo allow >"$work/portal.consent"
    python3 "$here/portal_stand_in.py" "$work" >"$work/portal.out" 2>"$work/portal.err" &
    portal=$!
    trap 'kill $portal 2>/dev/null; stop' EXIT
    timeout 30 gdbus wait --session --timeout 30 org.freedesktop.portal.Desktop || { echo "no portal name"; exit 1; }
    run_host() { # NAME
        before=$(wc -l <"$work/witness.log")
        ended=$(grep -c 'ended: it left the bus' "$work/portal.log")
        XDG_CURRENT_DESKTOP=GNOME XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-remotion \
            "$r" host --bind 127.0.0.1 --port 0 --inject auto --no-discovery --no-dashboard \
            --ready-file "$work/ready.$1.json" >"$work/host.$1.out" 2>"$work/host.$1.err" &
        host=$!
        for _ in $(seq 600); do [ -s "$work/ready.$1.json" ] && break; kill -0 "$host" 2>/dev/null || break; sleep 0.05; done
        if [ -s "$work/ready.$1.json" ]; then
            port=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["udpPort"])' "$work/ready.$1.json")
            "$r" client --host "127.0.0.1:$port" --data-dir "$work/client-keys" --source synthetic:circle \
                --duration 2 --press A@0.5+0.5 >"$work/client.$1.out" 2>"$work/client.$1.err"
            echo "client exit $?" >>"$work/client.$1.out"
            for _ in $(seq 200); do tail -n +$((before + 1)) "$work/witness.log" | grep -q '^button 272 0' && break; sleep 0.05; done
            kill -TERM "$host"
        fi
        wait "$host"; echo "host exit $?" >>"$work/host.$1.out"
        # Readiness: the portal has seen the host leave the bus (its session ended).
        for _ in $(seq 200); do [ "$(grep -c 'ended: it left the bus' "$work/portal.log")" -gt "$ended" ] && break; sleep 0.05; done
        tail -n +$((before + 1)) "$work/witness.log" >"$work/witness.$1.log"
        cp "$HOME/.local/share/remotion/portal-restore-token" "$work/token.$1" 2>/dev/null
        stat -c %a "$HOME/.local/share/remotion/portal-restore-token" >"$work/token.$1.mode" 2>/dev/null
    }
    run_host first
    touch "$work/portal.forge"
    run_host second
    rm -f "$work/portal.forge"
    touch "$work/portal.revoke"
    echo deny >"$work/portal.consent"
    run_host refused
    exit 0
fi
# The compositor going away under a client: mutter is stopped while a second probe waits.
mkfifo "$work/drop.in"
python3 "$here/mutter_eis.py" "$work/ei-probe" '{fd}' <"$work/drop.in" >"$work/drop.out" 2>"$work/drop.err" &
probe=$!
exec 3>"$work/drop.in"
for _ in $(seq 200); do grep -q '^ready' "$work/drop.out" && break; sleep 0.05; done
kill "$witness"; witness=""
kill "$mutter"; wait "$mutter"
printf 'move 5 5\nsync\nmove 6 6\nsync\n' >&3
exec 3>&-
wait "$probe"; echo "probe exit $?" >>"$work/drop.out"
