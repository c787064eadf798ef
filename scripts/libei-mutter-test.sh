#!/usr/bin/env bash
# GNOME's input path for remote control, run for real: mutter 48 (Debian 13) headless with a
# virtual monitor, as an unprivileged user on a private session bus, inside a minimal Debian
# 13 root (this machine is Debian 12: no libei, mutter 43). An EIS client (e2e/libei/ei_probe.c,
# libei 1.4) gets its socket from mutter's own RemoteDesktop D-Bus API (CreateSession,
# ConnectToEIS, Start: no portal dialog; e2e/libei/mutter_eis.py) and sends absolute motion,
# a click, keys and a wheel step; a Wayland client fullscreen on the monitor
# (e2e/wayland/wl_witness.c) says what mutter delivered. Then mutter is stopped under a
# connected client, which must be told (disconnect), not hang. docs/INJECTION.md, "libei".
#
# The root: mmdebstrap minbase of trixie with mutter, libei and the build tools for the two
# clients, cached for the day in $REMOTION_CI_CACHE (default /var/cache/remotion-ci) as
# trixie-mutter-<date>-<mirror hash>.tar; the mirror comes from this machine's apt sources
# (the only network use; the run itself is in a network namespace with only lo).
# Needs root (chroot, unshare), mmdebstrap. Prints 'N passed, N failed'. About 30 s with the
# root cached, a few minutes to make it.
set -u
cd "$(dirname "$0")/.."
name=libei-mutter-test
fail() { echo "$name: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (it makes a chroot): run as root"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing: apt-get install mmdebstrap (bash scripts/setup.sh --test)"
command -v ip >/dev/null || fail "ip is missing: apt-get install iproute2"

# The mirror: this machine's (scripts/lib/debian-sources.sh, as package-test.sh).
source scripts/lib/debian-sources.sh
debian_sources trixie || fail "no Debian mirror in /etc/apt/sources.list{,.d}: add one"
# mutter and the clients' build tools; the libraries this machine's host binary links (it runs in the
# root with the Swift toolchain's runtime mounted read-only at its own path).
packages=mutter,dbus-daemon,dbus-bin,libglib2.0-bin,python3-dbus,gcc,libc6-dev,pkg-config,libei-dev,libwayland-dev,libwayland-bin,wayland-protocols,libxkbcommon-dev
packages+=,libx11-6,libxtst6,libxext6,libqrencode4,libavahi-client3,libdbus-1-3,zlib1g
cache=${REMOTION_CI_CACHE:-/var/cache/remotion-ci}
key="$(date -u +%Y%m%d)-$(printf '%s\n' "${sources[@]}" "$packages" | md5sum | cut -c1-8)"
tar=$cache/trixie-mutter-$key.tar
mkdir -p "$cache"
if [[ ! -s $tar ]]; then
  echo "$name: making the Debian 13 root with mutter ($tar)"
  find "$cache" -maxdepth 1 -name 'trixie-mutter-*.tar' ! -name "$(basename "$tar")" -delete
  part=$(mktemp -u "$tar.part.XXXXXX")
  mmdebstrap --variant=minbase --format=tar --quiet --aptopt='APT::Install-Recommends "false"' \
      --include="$packages" trixie "$part" "${sources[@]}" >"$part.log" 2>&1 ||
    { tail -5 "$part.log" >&2; rm -f "$part" "$part.log"; fail "mmdebstrap could not make the root from $mirror"; }
  mv "$part" "$tar"; rm -f "$part.log"
fi
# --root: only the day's root (scripts/idle-builds.sh makes it beside the early stages).
[[ ${1:-} == --root ]] && { echo "$name: the root is ready: $tar"; exit 0; }

work=$(mktemp -d /tmp/remotion-libei.XXXXXX)
root=$work/root
cleanup() { [[ -n ${KEEP_WORK:-} ]] && echo "kept $work" || rm -rf "$work"; }
trap cleanup EXIT
mkdir "$root" && tar -C "$root" -xf "$tar" || fail "could not unpack $tar: remove it and run again"
chmod 1777 "$root/tmp"
# inroot [--user] COMMAND...: in the root, /proc and /dev mounted in a private mount
# namespace, with no network but loopback (a new network namespace with only lo, up: this
# machine's `ip` brings it up before the chroot).
inroot() {
  local spec=()
  if [[ $1 == --user ]]; then spec=(--userspec=tester:tester); shift; fi
  unshare --net --mount --fork -- sh -c 'ip link set lo up && mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" &&
    { [ ! -d /opt/swift ] || { mkdir -p "$0/opt/swift" && mount --bind -o ro /opt/swift "$0/opt/swift"; }; } && exec "$@"' \
    "$root" chroot "${spec[@]}" "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/tester LANG=C.UTF-8 "$@"
}
stage=$root/tmp/stage
mkdir -p "$stage/probe" "$stage/host" "$stage/portal"
cp e2e/libei/ei_probe.c e2e/libei/mutter_eis.py e2e/libei/mutter_stage.sh e2e/libei/portal_stand_in.py e2e/wayland/wl_witness.c "$stage/"
cat >"$stage/probe/commands" <<'COMMANDS'
move 100 200
sync
move 640.5 360.25
sync
button 272 1
button 272 0
sync
key 30 1
key 30 0
key 42 1
key 30 1
key 30 0
key 42 0
sync
scroll 1
sync
COMMANDS
inroot sh -c 'cd /tmp/stage && x=/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml &&
    wayland-scanner client-header $x xdg-shell-client-protocol.h && wayland-scanner private-code $x xdg-shell-protocol.c &&
    cc -Wall -Wextra -Werror -O1 -I. -o wl-witness wl_witness.c xdg-shell-protocol.c $(pkg-config --cflags --libs wayland-client xkbcommon) &&
    cc -Wall -Wextra -Werror -O1 -o ei-probe ei_probe.c $(pkg-config --cflags --libs libei-1.0) &&
    for m in probe host portal; do cp wl-witness $m/; done && cp ei-probe probe/ &&
    useradd -m tester && chown -R tester: /tmp/stage' >"$work/build.log" 2>&1 ||
  { tail -5 "$work/build.log"; fail "the witness or the EIS client does not build in the root"; }
echo "$name: mutter $(inroot mutter --version | awk '{print $2}'), libei $(inroot pkg-config --modversion libei-1.0)"
run_mode() { # probe|host: mutter_stage.sh under a private session bus, as the user
  timeout -k 5 120 bash -c "$(declare -f inroot); root=$root; inroot --user dbus-run-session -- /tmp/stage/mutter_stage.sh /tmp/stage/$1 $1" \
    >"$work/$1.log" 2>&1 || echo "$name: the $1 run inside the root ended with $? ($(tail -1 "$work/$1.log"))"
}
run_mode probe
# This machine's host binary (Debian 12's build) in the root: it links the Swift runtime
# from /opt/swift, mounted read-only at the same path by inroot.
bin=${REMOTION_BIN:-.build/debug/remotion}
if [[ -x $bin && -d /opt/swift ]]; then
  for m in host portal; do
    cp "$bin" "$stage/$m/remotion"
    # Its resource bundle (the phone's page) beside it, where a moved binary looks for it.
    for b in "$(dirname "$bin")"/*.resources; do [[ -d $b ]] && cp -r "$b" "$stage/$m/"; done
  done
  inroot chown -R tester: /tmp/stage/host /tmp/stage/portal
  run_mode host
  run_mode portal
fi

passed=0 failed=0 group=probe failed_groups=""
check() { # name, command... (a failure marks its group: probe, host or portal)
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $what"; else
    failed=$((failed + 1)); echo "FAIL $what"; [[ " $failed_groups " == *" $group "* ]] || failed_groups+=" $group"; fi
}
has() { grep -q -- "$2" "$stage/probe/$1"; }
check "mutter headless as an unprivileged user hands out an EIS socket (RemoteDesktop.ConnectToEIS)" has probe.err '^mutter-eis: device types'
check "its seat gives an absolute pointer and a keyboard, resumed" has probe.out '^ready abs=1 kbd=1'
check "the absolute pointer's region is the virtual monitor (0,0 1280x720)" has probe.out '^region 0: 0,0 1280x720'
check "the keyboard comes with mutter's XKB keymap" has probe.out '^keymap xkb'
check "the witness sees the pointer at (100, 200)" has witness.log ' 100.00 200.00$'
check "... then exactly at (640.5, 360.25)" has witness.log '^motion 640.50 360.25$'
check "... a left click, pressed and released" bash -c "grep -q '^button 272 1' '$stage/probe/witness.log' && grep -q '^button 272 0' '$stage/probe/witness.log'"
check "... the key a, then Shift+a as A" bash -c "grep -q '^key a text a' '$stage/probe/witness.log' && grep -q '^key A text A' '$stage/probe/witness.log'"
check "... a wheel step" has witness.log '^axis 0 '
check "mutter stopped under a connected client: the client is told (disconnected), not left hanging" \
  bash -c "grep -q '^disconnected' '$stage/probe/drop.out' && grep -q '^probe exit 3' '$stage/probe/drop.out'"
h=$stage/host
if [[ -f $h/remotion ]]; then
  group=host
  check "the host (this machine's build) runs in the root with --inject auto on mutter's EIS socket" \
    grep -q 'client exit 0' "$h/client.out"
  check "... auto picks libei for the handed socket, and says so in one line" \
    bash -c "test \"\$(cat '$h/host.out' '$h/host.err' | grep -c 'injecting with auto: an EIS socket is handed to the host (REMOTION_EIS_FD=[0-9]*) and libei.so.1 loads')\" -eq 1"
  check "... the witness sees the host move the pointer (20+ motions)" \
    test "$(grep -c '^motion ' "$h/witness.host.log" 2>/dev/null)" -ge 20
  check "... and the client's A as a left click, pressed and released" \
    bash -c "grep -q '^button 272 1' '$h/witness.host.log' && grep -q '^button 272 0' '$h/witness.host.log'"
  check "mutter stopped under the host mid-stream: one line says so (and libei's own log stays out)" \
    bash -c "test \"\$(grep -c 'libei injector: the compositor ended the EIS connection' '$h/host.err')\" -eq 1 && ! grep -q 'failed to send message' '$h/host.err'"
  check "... the host keeps running, then stops on SIGTERM (exit 0)" \
    bash -c "grep -q '^alive' '$h/host.alive' && grep -q '^host exit 0' '$h/host.alive'"
  # The RemoteDesktop portal (a stand-in for xdg-desktop-portal-gnome over mutter's API:
  # e2e/libei/portal_stand_in.py; the real one's dialog needs GNOME Shell).
  p=$stage/portal
  group=portal
  # The tokens the portal issued, in order (its log), and what the host had stored after each start.
  t1=$(sed -n 's/^issued restore token //p' "$p/portal.log" 2>/dev/null | sed -n 1p)
  t2=$(sed -n 's/^issued restore token //p' "$p/portal.log" 2>/dev/null | sed -n 2p)
  check "portal, first start: SelectDevices without a token (keyboard|pointer, persist_mode 2), then Start asks the person" \
    bash -c "sed -n '/^select-devices/p' '$p/portal.log' | head -1 | grep -qx 'select-devices types=3 persist_mode=2 restore_token=none' &&
             grep -q '^start asked the person: allow' '$p/portal.log'"
  check "... auto picks libei through the portal and says so in one line" \
    bash -c "test \"\$(cat '$p/host.first.out' '$p/host.first.err' | grep -c 'injecting with auto: GNOME on Wayland.*the RemoteDesktop portal handed the EIS socket (the desktop asked for permission; remembered in')\" -eq 1"
  check "... the token the portal issued is stored, mode 600" \
    bash -c "test -n '$t1' && test \"\$(cat '$p/token.first')\" = '$t1' && test \"\$(cat '$p/token.first.mode')\" = 600"
  check "... the witness sees the host move the pointer (20+ motions) and click" \
    bash -c "test \$(grep -c '^motion ' '$p/witness.first.log') -ge 20 && grep -q '^button 272 1' '$p/witness.first.log' && grep -q '^button 272 0' '$p/witness.first.log'"
  check "portal, second start: SelectDevices passes the stored token and Start answers without asking" \
    bash -c "sed -n '/^select-devices/p' '$p/portal.log' | sed -n 2p | grep -qx 'select-devices types=3 persist_mode=2 restore_token=$t1' &&
             grep '^start ' '$p/portal.log' | sed -n 2p | grep -q '^start honoured the restore token: no dialog'"
  check "... a forged Response (code 1) from another sender on the host's Request path came first and was ignored" \
    bash -c "grep -q '^forged Response 1 from :' '$p/portal.log' &&
             grep -q 'permission stored at the last start was used.*1 Response signal(s) not from the portal on the awaited path ignored' '$p/host.second.out' '$p/host.second.err'"
  check "... the new token replaces the spent one, and the host injects (20+ motions, a click)" \
    bash -c "test -n '$t2' && test \"\$(cat '$p/token.second')\" = '$t2' && test '$t1' != '$t2' &&
             test \$(grep -c '^motion ' '$p/witness.second.log') -ge 20 && grep -q '^button 272 0' '$p/witness.second.log'"
  check "portal, refused: the permission revoked, the person declines: one line says what to do, the token is dropped" \
    bash -c "grep -q '^start asked the person: deny' '$p/portal.log' && test ! -e '$p/token.refused' &&
             test \"\$(grep -c 'remote control was not allowed in the desktop.s dialog: start the host again and allow it' '$p/host.refused.err')\" -eq 1"
  check "... no injection, and the host stops with exit 1 (auto's fallback, uinput, is missing in this root)" \
    bash -c "grep -q '^host exit 1' '$p/host.refused.out' && ! grep -q '^motion ' '$p/witness.refused.log'"
  check "... each host's portal session ended when it left the bus" \
    test "$(grep -c '^session of .* ended: it left the bus' "$p/portal.log")" -eq 3
else
  echo "$name: no host binary ($bin) or no /opt/swift: the host's part was not run"
  failed=$((failed + 1))
fi
# What the failed groups' runs left: the logs of those runs only, so the line that says why
# is not pushed off a short tail by the others.
declare -A logs=(
  [probe]="probe/probe.out probe/drop.out probe/mutter.log probe/probe.err probe/witness.log"
  [host]="host/host.err host/client.err host/client2.err host/witness.host.log host/mutter.log"
  [portal]="portal/portal.log portal/portal.err portal/host.first.err portal/host.second.err portal/host.refused.err portal/host.refused.out")
for g in $failed_groups; do
  echo "--- $g.log"; tail -8 "$work/$g.log"
  for f in ${logs[$g]}; do echo "--- $f"; tail -20 "$stage/$f" 2>/dev/null; done
done
echo "$passed passed, $failed failed"
(( failed == 0 ))
