#!/usr/bin/env bash
# CI stage (docs/PACKAGING.md): builds the .deb from the checkout (scripts/package.sh,
# release build, lintian) and installs it into a minimal Debian 12 root and, at the same time,
# a minimal Debian 13 root (mmdebstrap
# minbase) with `apt-get install ./remotion_….deb` and nothing else, then, inside the root:
#   remotion --version
#   remotion demo --duration 1                     as a non-root user
#   remotion host --inject log                     as that user, fed from outside the root by
#                                                  the checkout's binary over loopback
# The root shares this machine's network namespace (chroot): every socket is on 127.0.0.1.
# The mirror comes from this machine's apt sources at run time; the root is cached in
# $REMOTION_CI_CACHE (default /var/cache/remotion-ci) as <suite>-minbase-<date>-<mirror
# hash>.tar, made again each day. Needs root, mmdebstrap, unshare.
# Env: REMOTION_SKIP_BUILD=1 packages the release binary already built (.build/release);
#      REMOTION_RELEASE_BIN=PATH packages that release binary instead;
#      REMOTION_DEB=PATH tests that .deb as it is (with REMOTION_RELEASE_BIN its binary, the
#      one outside): scripts/test.sh passes what scripts/package.sh made in a fresh clone
#      (scripts/idle-builds.sh).
#   package-test.sh --roots   makes the day's two roots in the cache and stops (no .deb):
#      scripts/idle-builds.sh runs it early, so a fresh machine's stage finds them made.
set -uo pipefail
cd "$(dirname "$0")/.."
fail() { echo "package-test: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (it makes a chroot): run as root"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing: apt-get install mmdebstrap (bash scripts/setup.sh --test)"

passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
works=(); pids=()
cleanup() {
  for w in "${works[@]}"; do [[ -s $w/host.pid ]] && kill "$(cat "$w/host.pid")" 2>/dev/null; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "${works[@]}"
}
trap cleanup EXIT

# root_tar SUITE: prints the path of a minimal root of SUITE as a tar, made if this day has none.
# The mirror: this machine's (scripts/lib/debian-sources.sh).
source scripts/lib/debian-sources.sh
root_tar() {
local suite=$1 mirror sources cache key tar part
debian_sources "$suite" || fail "no Debian mirror in /etc/apt/sources.list{,.d}: add one (deb http://MIRROR/debian bookworm main)"

cache=${REMOTION_CI_CACHE:-/var/cache/remotion-ci}
key="$(date -u +%Y%m%d)-$(printf '%s\n' "${sources[@]}" | md5sum | cut -c1-8)"
tar=$cache/$suite-minbase-$key.tar
mkdir -p "$cache"
if [[ ! -s $tar ]]; then
  echo "package-test: making the minimal $suite root ($tar)" >&2
  # Older days' roots go; a run beside this one may be making (or using) today's: each makes
  # its own part file and renames it into place whole.
  find "$cache" -maxdepth 1 -name "$suite-minbase-*.tar" ! -name "$(basename "$tar")" -delete
  find "$cache" -maxdepth 1 -name "$suite-minbase-*.recommends" ! -name "$(basename "$tar" .tar).recommends" -exec rm -rf {} +
  part=$(mktemp -u "$tar.part.XXXXXX")   # a name only: mmdebstrap makes the file
  mmdebstrap --variant=minbase --format=tar --quiet --skip=cleanup/apt/lists "$suite" "$part" "${sources[@]}" >"$part.log" 2>&1 ||
    { tail -5 "$part.log" >&2; rm -f "$part" "$part.log"; fail "mmdebstrap could not make the root from $mirror: check the mirror and the network"; }
  mv "$part" "$tar"; rm -f "$part.log"
fi
echo "$tar"
}

# recommends_debs TAR: the package's Recommends (packaging/control.in) and everything they pull
# in, downloaded once beside the root TAR into TAR's name with .recommends; the stage's install
# of them in that root reads these and downloads only what is not there.
recommends_debs() {
local tar=$1 dir tmp
dir=${1%.tar}.recommends
[[ -d $dir ]] && return 0
tmp=$(mktemp -d "$dir.part.XXXXXX")
mkdir "$tmp/root" && tar -C "$tmp/root" -xf "$tar" && cp /etc/resolv.conf "$tmp/root/etc/resolv.conf" &&
  unshare --mount --fork -- sh -c 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" && exec "$@"' "$tmp/root" \
    chroot "$tmp/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --download-only $(sed -n 's/^Recommends://p' packaging/control.in | tr -d ,) >"$tmp/apt.log" 2>&1 &&
  mkdir "$tmp/debs" && mv "$tmp/root/var/cache/apt/archives/"*.deb "$tmp/debs/" && mv "$tmp/debs" "$dir"
local rc=$?
((rc == 0)) || tail -5 "$tmp/apt.log" >&2
rm -rf "$tmp"; return $rc
}

# --roots: make the day's roots (both at once) and Debian 13's Recommends downloaded beside its
# root, and stop; scripts/idle-builds.sh does it early, so the stage finds them made.
if [[ ${1:-} == --roots ]]; then
  root_tar bookworm >/dev/null & a=$!
  { tar=$(root_tar trixie) && recommends_debs "$tar"; } & b=$!
  wait $a; ra=$?; wait $b; rb=$?
  ((ra == 0 && rb == 0)) || exit 1
  echo "package-test: the minimal Debian 12 and 13 roots are in ${REMOTION_CI_CACHE:-/var/cache/remotion-ci}"; exit 0
fi

outside=${REMOTION_RELEASE_BIN:-.build/release/remotion}
if [[ -n ${REMOTION_DEB:-} ]]; then
  deb=$REMOTION_DEB
  [[ -f $deb ]] || fail "REMOTION_DEB=$deb is not a file"
  echo "package-test: testing $deb as it is"
else
  bash scripts/package.sh ${REMOTION_RELEASE_BIN:+--bin "$REMOTION_RELEASE_BIN"} || fail "scripts/package.sh failed: fix what it says above"
  deb=$(ls -t dist/remotion_*.deb | head -1)
fi

# One Debian release: a minimal root of it (cached for the day), the .deb installed with
# apt-get and nothing else, then the same checks inside it.
test_release() { # suite (bookworm, trixie), label
local suite=$1 label=$2
echo "=== package-test: $label ($suite)"
tar=$(root_tar "$suite") || exit 1

work=$(mktemp -d /tmp/remotion-package-test.XXXXXX)
works+=("$work")
root=$work/root
mkdir "$root" && tar -C "$root" -xf "$tar" || fail "could not unpack $tar: remove it and run again"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
chmod 1777 "$root/tmp"
# inroot [--user] COMMAND...: runs in the root with /proc and /dev mounted in a private
# mount namespace (gone when the command ends); the network namespace is this machine's.
# With PIDFILE set, the command's own pid (not unshare's) is written there, for signals.
inroot() {
  local spec=()
  if [[ $1 == --user ]]; then spec=(--userspec=tester:tester); shift; fi
  unshare --mount --fork -- sh -c 'mount -t proc proc "$0/proc" && mount --rbind /dev "$0/dev" &&
    { [ -z "${PIDFILE:-}" ] || echo $$ >"$PIDFILE"; } && exec "$@"' \
    "$root" chroot "${spec[@]}" "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/home/tester LANG=C.UTF-8 "$@"
}

if [[ $suite != bookworm ]]; then
  # The WebRTC shim's hand-declared ABI against this release's GStreamer, GLib and libnice
  # headers (this machine's are Debian 12's, checked by scripts/test.sh): its -dev packages
  # downloaded by the root's apt and unpacked outside it, nothing installed.
  hdr=$work/headers; mkdir -p "$hdr" "$root/tmp/dev"
  glibdev=libglib2.0-dev   # Debian 13 moved GLib's headers to libgio-2.0-dev
  inroot apt-cache show libgio-2.0-dev >/dev/null 2>&1 && glibdev=libgio-2.0-dev
  if inroot sh -c "cd /tmp/dev && apt-get download -q libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
       libgstreamer-plugins-bad1.0-dev libnice-dev $glibdev" >"$work/dev-download.log" 2>&1; then
    for d in "$root"/tmp/dev/*.deb; do dpkg -x "$d" "$hdr"; done
    abi=$(bash scripts/check-gst-abi.sh --headers "$hdr" 2>&1); rc=$?
    check "the WebRTC shim's GStreamer ABI matches $label's headers (${abi##*$'\n'})" test "$rc" -eq 0
    ((rc == 0)) || echo "$abi" | tail -5
  else
    tail -3 "$work/dev-download.log"
    check "$label's GStreamer -dev packages download (for the ABI check)" false
  fi
  rm -rf "$root/tmp/dev"
fi

before=$(inroot dpkg-query -W -f '${Package}\n' | wc -l) before_kib=$(du -sk "$root/usr" | cut -f1)
cp "$deb" "$root/tmp/"
# Without its Recommends (GStreamer's WebRTC plugins): the host must run without them.
if ! inroot sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")" >"$work/apt.log" 2>&1; then
  tail -15 "$work/apt.log"
  fail "apt-get install ./$(basename "$deb") failed in a minimal $label: a Depends is missing or wrong (see above)"
fi
inroot apt-get clean
after=$(inroot dpkg-query -W -f '${Package}\n' | wc -l) after_kib=$(du -sk "$root/usr" | cut -f1)
echo "package-test: $label: apt-get install --no-install-recommends ./$(basename "$deb") added $((after - before)) packages to minbase ($((after - before - 1)) dependencies), /usr grew by $(((after_kib - before_kib) / 1024)) MiB"
recommends=$(dpkg-deb -f "$deb" Recommends | tr -d ,)
# Where the Recommends are installed below (Debian 13) their count comes from that install: apt's
# simulation of 290 packages is no check and cost a solver run.
if [[ $suite == bookworm ]]; then
  echo "package-test: its Recommends ($recommends) would add $(inroot apt-get install -s --no-install-recommends $recommends | grep -c '^Inst ') more (simulated)"
fi
check "the package has at most 70 dependencies without its Recommends" test $((after - before - 1)) -le 70
check "the package carries no test code (the page's self-checks, its package.json)" \
  bash -c "! dpkg-deb -c '$deb' | grep -E 'selftest|Page/package.json'"
check "remotion --version in the root says the package's version" \
  test "$(inroot remotion --version)" = "$(dpkg-deb -f "$deb" Version)"
check "the man page and the completions are where man and the shells look" \
  test -s "$root/usr/share/man/man1/remotion.1.gz" -a -s "$root/usr/share/bash-completion/completions/remotion"
check "the uinput rule is installed in rules.d and grants no /dev/uhid" \
  bash -c "grep -q '^KERNEL==\"uinput\"' '$root/usr/lib/udev/rules.d/60-remotion-uinput.rules' && ! grep -v '^#' '$root/usr/lib/udev/rules.d/60-remotion-uinput.rules' | grep -q 'uhid\|hidraw'"
check "the uhid rule is shipped (/usr/share/remotion) but installed nowhere udev reads (an opt-in)" \
  bash -c "test -s '$root/usr/share/remotion/60-remotion-uhid.rules' && ! ls '$root'/usr/lib/udev/rules.d/*uhid* '$root'/etc/udev/rules.d/*uhid* 2>/dev/null | grep -q ."
check "no rule udev reads makes anything writable by every account (the pads' light is an opt-in)" \
  bash -c "! grep -v '^#' '$root'/usr/lib/udev/rules.d/*remotion* | grep -qE 'chmod|MODE|SUBSYSTEM==\"leds\"'"
check "the pads' light rule is shipped (/usr/share/remotion) but installed nowhere udev reads" \
  bash -c "grep -q 'SUBSYSTEM==\"leds\"' '$root/usr/share/remotion/60-remotion-pad-light.rules' && ! ls '$root'/usr/lib/udev/rules.d/*light* '$root'/etc/udev/rules.d/*light* 2>/dev/null | grep -q ."

check "the app menu entry is valid (desktop-file-validate) and opens the dashboard, starting the host" \
  bash -c "desktop-file-validate '$root/usr/share/applications/remotion.desktop' &&
           grep -qx 'Exec=/usr/bin/remotion dashboard --start' '$root/usr/share/applications/remotion.desktop' &&
           test -s '$root/usr/share/icons/hicolor/scalable/apps/remotion.svg'"
check "its AppStream metadata validates (appstreamcli validate --no-net)" \
  appstreamcli validate --no-net "$root/usr/share/metainfo/org.remotion.Remotion.metainfo.xml"

inroot useradd --create-home --shell /bin/sh tester || fail "useradd failed in the root"
inroot --user remotion demo --duration 1 >"$work/demo.out" 2>"$work/demo.err"; rc=$?
check "remotion demo --duration 1 as a non-root user exits 0" test "$rc" -eq 0
check "... and prints its summary (host received what the client sent)" grep -q 'client sent [0-9]*, host received' "$work/demo.out"
((rc == 0)) || { tail -5 "$work/demo.err"; }

inroot --user remotion doctor --json >"$work/doctor.json" 2>"$work/doctor.err"
check "remotion doctor in the root says GStreamer WebRTC is missing and what to install" \
  python3 -c 'import json, sys; w = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "webrtc"][0]
sys.exit(not (w["status"] == "warn" and "gstreamer1.0-plugins-bad" in (w["fix"] or "")))' "$work/doctor.json"

# The host in the root, as the user; the checkout's binary pairs and streams from outside.
. scripts/lib/ready.sh
inroot --user remotion pair --listen --yes --bind 127.0.0.1 --port 0 --window 20 >"$work/pair.out" 2>"$work/pair.err" &
listener=$!; pids+=("$listener")
code=""
for _ in $(seq 200); do code=$(grep -m1 '^remotion-pair:' "$work/pair.out"); [[ -n $code ]] && break; sleep 0.05; done
"$outside" pair "$code" --name package-test --data-dir "$work/client-keys" >/dev/null 2>"$work/pair-client.err"; rc=$?
wait "$listener" 2>/dev/null
check "pairing the host in the root from outside (remotion pair --listen / pair CODE)" test "$rc" -eq 0
# Every port the kernel's choice (--port 0, --web-port 0): the Debian 12 and 13 roots run at the
# same time in this network namespace, and a fixed web port (7476) let one host's web controller
# fail to bind beside the other's, so it never said "WebSocket only".
PIDFILE=$work/host.pid inroot --user remotion host --bind 127.0.0.1 --port 0 --web-port 0 --inject log --no-discovery --no-dashboard \
  --ready-file /tmp/ready.json >"$work/host.out" 2>"$work/host.err" &
host=$!; pids+=("$host")
if wait_ready "$root/tmp/ready.json" "$host" 30; then
  port=$(ready_value "$root/tmp/ready.json" udpPort)
  "$outside" client --host "127.0.0.1:$port" --data-dir "$work/client-keys" --source synthetic:circle \
    --duration 2 --press A@0.5+0.5 2>"$work/client.err"; rc=$?
  check "a client outside the root streams to the host inside (exit 0)" test "$rc" -eq 0
  for _ in $(seq 100); do grep -q '"button":"left","state":"up"' "$work/host.out" && break; sleep 0.05; done
  kill -INT "$(cat "$work/host.pid")" 2>/dev/null; wait "$host" 2>/dev/null
  check "... which stops on SIGINT, every held input released" grep -q "every held input released" "$work/host.err"
  check "... the host logged pointer motion" test "$(grep -c '"kind":"move' "$work/host.out")" -gt 20
  check "... and the press and its release" grep -q '"button":"left","state":"up"' "$work/host.out"
  said=$(grep -c "WebSocket only, no data channels for phones (GStreamer's WebRTC is not installed" "$work/host.err")
  check "... and without GStreamer it serves phones over the WebSocket, saying so in one line ($said)" test "$said" -eq 1
  [[ $said -eq 1 ]] || { echo "     the host's lines:"; sed 's/^/     | /' "$work/host.err" | tail -25; }
else
  check "remotion host starts in the root (ready file)" false
  tail -3 "$work/host.err"
fi

if [[ $suite != bookworm ]]; then
  # With its Recommends (GStreamer's WebRTC: 1.26 here, the package built against 1.22's ABI,
  # checked above), a phone's page reaches the host over data channels: the page in headless
  # Chromium and the host in the root, in a namespace of their own (scripts/lib/package-datachannel.sh).
  # What --roots downloaded today beside this root (apt checks each against the index's hash).
  [[ -d ${tar%.tar}.recommends ]] && cp "${tar%.tar}.recommends/"*.deb "$root/var/cache/apt/archives/"
  if inroot sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -q $recommends" >"$work/apt-recommends.log" 2>&1; then
    echo "package-test: $label: its Recommends ($recommends) added $(($(inroot dpkg-query -W -f '${Package}\n' | wc -l) - after)) packages ($(grep -m1 -o 'Need to get .* of archives' "$work/apt-recommends.log" || echo 'nothing to download'))"
    inroot --user remotion doctor --json >"$work/doctor-recommends.json" 2>/dev/null
    check "with the Recommends ($recommends) remotion doctor finds GStreamer's WebRTC" \
      python3 -c 'import json, sys; w = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "webrtc"][0]
sys.exit(w["status"] != "pass")' "$work/doctor-recommends.json"
    unshare -n bash scripts/lib/package-datachannel.sh "$root" "$work" >"$work/datachannel.log" 2>&1; rc=$?
    sed 's/^/     /' "$work/datachannel.log" | tail -8
    check "... and a phone's page pairs with the host in the root and presses A over data channels" test "$rc" -eq 0
  else
    tail -3 "$work/apt-recommends.log"
    check "the Recommends ($recommends) install in $label" false
  fi
fi
}

# Debian 12, and the current stable (the package built on Debian 12 installs and runs there too),
# at once: each release in a subshell of its own, its lines kept in a file and shown whole, in
# order, its counts added here. Most of each is apt waiting on the mirror and dpkg on one core.
both=$(mktemp -d /tmp/remotion-package-test.XXXXXX); works+=("$both")
release_apart() { # suite label
  ( works=(); pids=(); passed=0; failed=0; trap cleanup EXIT
    test_release "$1" "$2"; echo "$passed $failed" >"$both/$1.counts" ) >"$both/$1" 2>&1
}
release_apart bookworm "Debian 12" & d12=$!
release_apart trixie "Debian 13" & d13=$!
pids+=("$d12" "$d13")
wait "$d12"; cat "$both/bookworm"
wait "$d13"; cat "$both/trixie"
for suite in bookworm trixie; do
  if [[ -s $both/$suite.counts ]]; then
    read -r p f <"$both/$suite.counts"; passed=$((passed + p)); failed=$((failed + f))
  else
    failed=$((failed + 1)); echo "FAIL the $suite part stopped before its checks ended (its last line above says why)"
  fi
done

echo "package-test: $passed passed, $failed failed"
((failed == 0)) || fail "$failed check(s) failed above: the package as installed does not work"
