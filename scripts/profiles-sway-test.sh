#!/usr/bin/env bash
# Profiles that follow the focused application on sway (docs/MOTION.md, "Profiles"), with the
# real binary: headless sway 1.7 (pixman, no GPU) as a throwaway user made here (sway refuses
# root; rswayfocus<PID>, removed at the end), its IPC socket at a path the stage names
# (SWAYSOCK), two Wayland clients (e2e/wayland/wl_witness.c) with app_ids alpha and beta (beta
# alone on workspace 2), the focus moved with `swaymsg '[app_id=...] focus'`; a `remotion
# client` streaming a circle into `remotion host --inject log` with [mapping] mode = "pointer"
# and a [[profile]] for beta in FPS mode, the host given only SWAYSOCK. The witness is the
# injector's own output (one JSON line per event):
#   A  alpha focused: absolute moves (move_to) only
#   B  focus on beta: relative (move_by) only after the first, within one event
#   C  focus back on alpha: absolute again
#   D  beta focused, then its window closes (its workspace left empty, so no other window
#      takes the focus): back to the host's mapping (absolute)
#   E  sway stopped and started again on the same SWAYSOCK, beta focused there: relative again
#      (the host reconnected), and it said each of the two in one line
# Inside a new network namespace that has only lo; needs root (useradd, unshare -n). Prints
# 'N passed, N failed'; every process is stopped by its pid; bounded waits on signals the
# programs give (sway's config exec, its tree, the host's ready file, the injector's output).
#   REMOTION_SKIP_BUILD=1 scripts/profiles-sway-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
netns_precheck() { wayland_client_prechecks profiles-sway-test; }
enter_private_netns profiles-sway-test "sway swaymsg useradd userdel setpriv cc pkg-config wayland-scanner python3" "$@"

stage_workdir remotion-swayfocus
chmod 755 "$work"
user="rswayfocus$$"
on_exit 'id "$user" >/dev/null 2>&1 && userdel "$user" 2>/dev/null'
passed=0; failed=0
check() { # name, command...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
fail_all() { echo "profiles-sway-test: $1"; for f in "$work"/*.log "$work"/host.err; do [ -f "$f" ] && { echo "--- $f"; tail -8 "$f"; }; done; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

xml=/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
wayland-scanner client-header "$xml" "$work/xdg-shell-client-protocol.h" \
    && wayland-scanner private-code "$xml" "$work/xdg-shell-protocol.c" \
    && cc -Wall -Wextra -Werror -O1 -I"$work" -o "$work/wl-witness" e2e/wayland/wl_witness.c "$work/xdg-shell-protocol.c" \
          $(pkg-config --cflags --libs wayland-client xkbcommon) \
    || fail_all "the Wayland client does not build"

useradd -M -d "$work/home" -s /usr/sbin/nologin "$user" || fail_all "useradd $user failed"
mkdir -p "$work/home" "$work/run"
chmod 700 "$work/run"
chown "$user:" "$work/home" "$work/run"
export SWAYSOCK="$work/run/sway-ipc.sock"
as_user() { # COMMAND... &: run in the background as the throwaway user (the subshell execs setpriv, which execs: $! is the command's pid)
    exec setpriv --reuid="$user" --regid="$user" --clear-groups env -i PATH="$PATH" HOME="$work/home" LANG=C.UTF-8 \
        XDG_RUNTIME_DIR="$work/run" SWAYSOCK="$SWAYSOCK" WAYLAND_DISPLAY=wayland-1 "$@"
}
bounded() { # SECONDS COMMAND...: until COMMAND succeeds
    local end=$((SECONDS + $1)); shift
    until "$@"; do ((SECONDS < end)) || return 1; sleep 0.05; done
}
sway_up() { # N: sway with its config's exec as the readiness signal
    cat >"$work/sway$1.conf" <<CONF
output HEADLESS-1 resolution 1280x720
xwayland disable
assign [app_id="beta"] workspace 2
exec /bin/touch $work/run/sway$1.ready
CONF
    chmod 644 "$work/sway$1.conf"
    as_user env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman sway -c "$work/sway$1.conf" \
        >"$work/sway$1.log" 2>&1 &
    sway_pid=$!; pids+=("$sway_pid")
    bounded 20 test -e "$work/run/sway$1.ready" -a -S "$SWAYSOCK" || fail_all "sway $1 did not start headless"
}
has_app() { swaymsg -t get_tree -r | grep -Eq "\"app_id\": ?\"$1\""; }
client() { # APP_ID: a Wayland window of that app_id, once sway's tree has it
    as_user "$work/wl-witness" "$1" >"$work/$1.log" 2>&1 &
    pids+=("$!"); eval "${1}_pid=$!"
    bounded 10 has_app "$1" || fail_all "the window of $1 did not appear in sway's tree"
}
focus() { swaymsg "[app_id=$1] focus" >/dev/null; }

sway_up 1
client alpha; client beta
focus alpha

cp e2e/profiles/beta-fps.toml "$work/config.toml"
env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE SWAYSOCK="$SWAYSOCK" \
    "$REMOTION_BIN" host --bind 127.0.0.1 --port 0 --insecure --inject log --no-discovery --no-dashboard --no-web \
    --data-dir "$work/data" --config "$work/config.toml" --ready-file "$work/ready.json" \
    >"$work/host.out" 2>"$work/host.err" &
host_pid=$!; pids+=("$host_pid")
wait_ready "$work/ready.json" "$host_pid" 30 || fail_all "the host did not start"
port=$(ready_value "$work/ready.json" udpPort)
"$REMOTION_BIN" client --host "127.0.0.1:$port" --insecure --source synthetic:circle --rate 100 --duration 300 \
    >/dev/null 2>"$work/client.err" &
pids+=("$!")

INJECTOR_LOG=$work/host.out; . scripts/lib/injector-moves.sh   # moves, lines, until_moves, settled
said() { grep -c "$1" "$work/host.err"; }
said_once() { [[ $(said "$1") -eq 1 ]]; }

check "the host says it follows sway's focus, in one line" bounded 10 said_once "following sway's focused window (SWAYSOCK)"
check "A: alpha focused, the host's pointer mode: absolute moves only" settled 0 move_to move_by 50
from=$(lines); focus beta
check "B: beta focused, its profile's FPS mode: relative moves only" settled "$from" move_by move_to 50
from=$(lines); focus alpha
check "C: alpha focused again: absolute moves only" settled "$from" move_to move_by 50
from=$(lines); focus beta
until_moves "$from" move_by 20
from=$(lines); stop_pid "$beta_pid"
check "D: beta's window closes while focused (its workspace empty): back to the host's pointer mode" \
    settled "$from" move_to move_by 50
stop_pid "$alpha_pid"; stop_pid "$sway_pid"
check "E: sway gone: the host says so in one line" bounded 10 said_once "sway's IPC at .* closed"
sway_up 2
client beta; focus beta
from=$(lines)
check "E: sway started again on the same SWAYSOCK, beta focused: relative moves again" settled "$from" move_by move_to 50
check "E: the host said once that it follows sway again" bounded 10 said_once "following sway's focused window again"
check "the host said nothing went wrong following the focus" test "$(said "does not follow the focus")" -eq 0

stop_pid "$host_pid" INT
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
