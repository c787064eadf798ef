#!/usr/bin/env bash
# The wlroots injector against a real compositor (e2e/wayland/sway_stage.py): headless sway
# 1.7 (pixman renderer, no GPU) with two outputs of different sizes and scales, a witness
# client on each (e2e/wayland/wl_witness.c, built here with wayland-scanner and cc), and
# `remotion host --inject auto` fed by a phone page's WebSocket: the pointer where it aims on
# each output, a click, a typed line with non-ASCII text, sway stopped and started again
# mid-stream, a socket that is no compositor, outputs added (and, where sway can, disabled)
# while the host runs, the output chosen in config.toml, the presenter's laser as a layer-shell
# dot found by grim. sway refuses root: everything runs as a
# throwaway user made here (rsway<PID>, its own runtime directory under a fresh /tmp folder),
# removed at the end. Inside a new network namespace that has only lo. Needs root (useradd,
# unshare -n). Prints 'N passed, N failed'; exits non-zero on any failure. About 40 s.
#   REMOTION_SKIP_BUILD=1 scripts/wayland-sway-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
netns_precheck() { wayland_client_prechecks wayland-sway-test; }
enter_private_netns wayland-sway-test "sway swaymsg grim useradd userdel runuser cc pkg-config wayland-scanner python3" "$@"

work=$(mktemp -d /tmp/remotion-sway.XXXXXX)
chmod 755 "$work"
user="rsway$$"
driver=""
cleanup() {
    [ -n "$driver" ] && kill "$driver" 2>/dev/null && wait "$driver" 2>/dev/null
    id "$user" >/dev/null 2>&1 && userdel "$user" 2>/dev/null
    [ -n "${KEEP_WORK:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# The witness client, against the xdg-shell XML Debian's wayland-protocols ships.
xml=/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
wayland-scanner client-header "$xml" "$work/xdg-shell-client-protocol.h" \
    && wayland-scanner private-code "$xml" "$work/xdg-shell-protocol.c" \
    && cc -Wall -Wextra -Werror -O1 -I"$work" -o "$work/wl-witness" e2e/wayland/wl_witness.c "$work/xdg-shell-protocol.c" \
          $(pkg-config --cflags --libs wayland-client xkbcommon) \
    || stage_fail wayland-sway-test "the witness client does not build"

useradd -M -d "$work/home" -s /usr/sbin/nologin "$user" || stage_fail wayland-sway-test "useradd $user failed"
mkdir -p "$work/home" "$work/user"
chown "$user:" "$work/home" "$work/user"
# Its own runtime directory: the driver makes $work/user/run (0700).
timeout -k 5 240 runuser -u "$user" -- env -i PATH="$PATH" HOME="$work/home" LANG=C.UTF-8 \
    python3 e2e/wayland/sway_stage.py --bin "$REMOTION_BIN" --witness "$work/wl-witness" --work "$work/user" &
driver=$!
wait "$driver"; rc=$?
driver=""
if [ $rc -ne 0 ]; then
    [ $rc -eq 124 ] && echo "wayland-sway-test: timed out" && echo "0 passed, 1 failed"
    for f in "$work"/user/*.log "$work"/user/host*.err; do [ -f "$f" ] && { echo "--- $f"; tail -8 "$f"; }; done
fi
exit $rc
