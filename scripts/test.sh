#!/usr/bin/env bash
# The whole test suite, from a fresh machine (Debian 12, Swift 6.3, root): installs
# what it needs, builds, and runs every test — unit and property tests, loopback UDP
# end-to-end tests, XTest under a real Xvfb, the CLI and DSU end to end, and the stages that
# later issues add (avahi in namespaces, the browser, the fuzzers).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test || exit 1
# Where the run's minutes went, printed last (CI shows a log's tail): setup, the build, each stage,
# and how much of the machine's CPU time went unused from here on (/proc/stat: idle and iowait).
times=("setup ${SECONDS} s")
cpu_idle() { awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
read -r idle_at_start total_at_start < <(cpu_idle)

mkdir -p .build
began=$SECONDS
# Line tables only (-gline-tables-only): a crash's backtrace keeps its files and lines, and the
# debug build writes no variable and type info that nothing in the run reads (about 4% of the
# build's CPU time). The index store is written by the Swift compiles only: SwiftPM's test
# discovery on Linux reads the test modules' units (without any store it stops the build), and
# nothing reads the C targets', which cost about 16% of their compile time (40 of BoringSSL's
# files: 14.3 CPU-seconds without, 17.0-18.3 with), about 75 of the build's CPU-seconds.
index_store=.build/$(uname -m)-unknown-linux-gnu/debug/index/store
mkdir -p "$index_store"
swift build --build-tests -Xswiftc -gline-tables-only --disable-index-store -Xswiftc -index-store-path -Xswiftc "$PWD/$index_store" 2>&1 |
  tee .build/test-build.log; (( PIPESTATUS[0] == 0 )) || exit 1
times+=("debug build $((SECONDS - began)) s")
# Every stage uses this build as it is: a `swift build` without the flag above would redo it.
export REMOTION_SKIP_BUILD=1
bash scripts/check-layers.sh || exit 1
bash scripts/check-warnings.sh .build/test-build.log || exit 1
bash scripts/check-gst-abi.sh || exit 1
passed=0; failed=0; failures=()
logs=.build/stage-logs; rm -rf "$logs"; mkdir -p "$logs"
stage() { # name, command...
  local name=$1; shift
  local log="$logs/${lane:-}$((passed + failed + 1)).log"
  echo "=== $name"
  # tee from a FIFO: a daemon a stage left holding its output cannot hold up the suite
  # (tee is waited for 3 s at most); the stage's own status is the one tested.
  rm -f "$log.fifo"; mkfifo "$log.fifo"
  tee "$log" <"$log.fifo" & local tee_pid=$!
  local rc=0 began=$SECONDS idle0 total0 idle1 total1
  read -r idle0 total0 < <(cpu_idle)
  # A stage that hangs is stopped (its whole process group) after STAGE_LIMIT seconds and
  # fails: one hang must not eat the run's 30 minutes.
  # timeout leads its own process group: whatever the stage leaves in it (an Xvfb whose
  # test process aborted, say) is named and stopped before the next stage starts.
  # A subshell around it keeps the stage's own CPU time (`times`: its waited-for children's user
  # and system seconds), the figure that says what a stage costs whatever ran beside it.
  ( timeout -k 10 "${STAGE_LIMIT:-600}" "$@" >"$log.fifo" 2>&1 </dev/null & echo $! >"$log.group"
    wait $!; status=$?; times >"$log.cpu"; exit "$status" ) & local runner=$!   # (not in a pipe: its own subshell)
  wait "$runner" || rc=$?
  local group; group=$(cat "$log.group")
  ((rc == 124 || rc == 137)) && echo "=== $name: stopped after ${STAGE_LIMIT:-600} s (hung?)"
  local left; left=$(pgrep -g "$group" -l 2>/dev/null | tr '\n' ' ')
  if [[ -n $left ]]; then echo "=== left behind by the stage, stopped: $left" | tee -a "$log"; kill -KILL -- "-$group" 2>/dev/null; fi
  for _ in $(seq 30); do kill -0 "$tee_pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$log.fifo"
  echo "=== took $((SECONDS - began)) s"
  read -r idle1 total1 < <(cpu_idle)
  # "0m12.340s 0m1.200s" → 13.5
  local cpu; cpu=$(sed -n 2p "$log.cpu" 2>/dev/null | tr 'ms' '  ' | awk '{ printf "%.0f", $1 * 60 + $2 + $3 * 60 + $4 }')
  times+=("$(cut -d' ' -f1-4 <<<"$name" | tr -d '(:,') $((SECONDS - began)) s ($(( (idle1 - idle0) * 100 / (total1 - total0 + 1) ))% idle, ${cpu:-?} CPU-s)")
  if ((rc == 0)); then passed=$((passed + 1)); else
    failed=$((failed + 1)); failures+=("$name")
    # Kept for the end: CI shows a log's tail, and the fuzzers print a lot after this.
    { echo "--- $name: its FAIL lines and last lines"; grep -a -E "FAIL|Error|error:" "$log" | head -20; tail -n 15 "$log"; } >>"$logs/failed${lane:-}.txt"
  fi
}

# The .deb's release build and the fuzzers' builds go on beside `swift test` and the later
# stages at idle priority (scripts/idle-builds.sh). Started beside the debug build they slowed it
# from 683 s to about 1,190 s (the two CPUs here are not two idle cores' worth: an idle-priority
# compiler still takes from its neighbour), and every stage waits for that build. Beside
# `swift test` (52% of its CPU time unused) they slow it from 53 to about 76 s, and the release
# build is ready some 400 s sooner (fresh runs: 819 s from there against 1,163 s from after it,
# where the page's guest waited 70 s). The stages that need them come last and wait for them.
idle=.build/idle-builds
# Its own process group (setsid does not fork here: a background job is no group leader), so
# that an interrupted run stops every compiler it started.
setsid bash scripts/idle-builds.sh "$idle" & idle_pid=$!
trap 'kill -- "-$idle_pid" 2>/dev/null' EXIT
# A crash prints every frame of every thread (system frames too: the one that called malloc).
stage "swift test" env SWIFT_BACKTRACE=preset=full swift test --skip-build
stage "cli end to end" bash scripts/cli-e2e.sh
stage "dsu end to end (Xvfb, python peer)" bash scripts/dsu-e2e.sh
stage "discovery across namespaces" bash scripts/discovery-e2e.sh
stage "dashboard in headless chromium" env REMOTION_SKIP_BUILD=1 bash scripts/browser-test.sh
stage "web controller: phone page in headless chromium → XTest" env REMOTION_SKIP_BUILD=1 bash scripts/web-controller-test.sh
stage "the launcher opens only a dashboard that proves its token (another user on a dead host's port)" env REMOTION_SKIP_BUILD=1 bash scripts/dashboard-launch-test.sh
stage "a phone paired from the dashboard alone: Accept, Deny, typing, Revoke (chromium, log injector)" env REMOTION_SKIP_BUILD=1 bash scripts/dashboard-consent-test.sh
stage "a key in the terminal view answers the waiting phone (tmux, log injector)" env REMOTION_SKIP_BUILD=1 bash scripts/terminal-consent-test.sh
stage "a desktop notification answers the waiting phone (private session bus, python-dbusmock's notification server)" env REMOTION_SKIP_BUILD=1 bash scripts/notify-consent-test.sh
stage "web page modes: layouts, touchpad, typing, laser overlay (chromium → XTest)" env REMOTION_SKIP_BUILD=1 bash scripts/web-modes-test.sh
stage "web page in WebKit (WebKitGTK): pairing, motion, every mode, layouts (→ XTest)" env REMOTION_SKIP_BUILD=1 bash scripts/webkit-test.sh
stage "XTest keymap borrowed for typing is given back: after 1 s, SIGHUP, SIGKILL + restart (Xvfb, ~10 s)" env REMOTION_SKIP_BUILD=1 bash scripts/xtest-keymap-test.sh
stage "profiles follow the X11 focus: two windows of different WM_CLASS, _NET_ACTIVE_WINDOW as a window manager sets it, the injector absolute then relative then absolute (Xvfb, log injector)" env REMOTION_SKIP_BUILD=1 bash scripts/profiles-x11-test.sh
stage "profiles follow sway's focus: headless sway as a throwaway user, two Wayland clients with different app_ids, swaymsg moving the focus, the injector absolute then relative then absolute, a closed window back to the default, sway restarted under the host (log injector)" env REMOTION_SKIP_BUILD=1 bash scripts/profiles-sway-test.sh
stage "the wlroots injector on headless sway 1.7 as a throwaway user: the pointer where it aims on each of two outputs (witness clients), a click, non-ASCII typing, sway gone mid-stream and back, a socket that is no compositor (~15 s)" env REMOTION_SKIP_BUILD=1 bash scripts/wayland-sway-test.sh
stage "fast user switch: logind (python-dbusmock, a fake) Active=false releases and drops input (Xvfb, ~10 s)" env REMOTION_SKIP_BUILD=1 bash scripts/logind-session-test.sh
stage "web controller: newest wins after a 1 s stall (nftables, log injector)" env REMOTION_SKIP_BUILD=1 bash scripts/web-stall-test.sh
stage "web controller: the HTTPS port under a neighbour's connection flood" env REMOTION_SKIP_BUILD=1 bash scripts/web-flood-test.sh
stage "web transports: data channels vs UDP under nftables loss, WebSocket fallback" env REMOTION_SKIP_BUILD=1 bash scripts/web-transport-test.sh
stage "remotion doctor in namespaces: nftables drop, avahi stopped, a taken port (~25 s)" env REMOTION_SKIP_BUILD=1 bash scripts/doctor-test.sh
# The libei stage's Debian 13 root (mutter) is made by scripts/idle-builds.sh beside the early
# stages (a few minutes, mostly the mirror); the stage waits for it rather than making it twice.
# idle_status NAME: waits until scripts/idle-builds.sh has written $idle/NAME.rc (or is gone).
idle_status() { while [[ ! -s $idle/$1.rc ]] && kill -0 "$idle_pid" 2>/dev/null; do sleep 1; done; }
libei_stage() {
  local began=$SECONDS
  idle_status libei-root
  echo "waited $((SECONDS - began)) s for the idle-priority mutter root (rc $(cat "$idle/libei-root.rc" 2>/dev/null || echo none): the stage makes it if that failed)"
  REMOTION_SKIP_BUILD=1 bash scripts/libei-mutter-test.sh
}
export -f idle_status libei_stage; export idle idle_pid
stage "GNOME's input path: mutter 48 headless in a Debian 13 root hands out EIS (its RemoteDesktop API); a libei client and the host (--inject libei) move, click and type at a witness client; mutter gone mid-stream (~30 s; the root made once a day, a few minutes)" bash -c libei_stage
stage "benchmark smoke (a few seconds; nothing about timing is asserted)" \
  env REMOTION_SKIP_BUILD=1 SMOKE=1 SECONDS_PER_RUN=1 LOADS=2x250 CORE_PACKETS=2000 bash scripts/bench.sh debug

# idle_built NAME: a stage's first check, that its build in scripts/idle-builds.sh passed.
idle_built() { [[ $(cat "$idle/$1.rc" 2>/dev/null) == 0 ]] || { tail -20 "$idle/$1.log"; echo "the $1 build failed (log: $idle/$1.log)"; return 1; }; }
# The QEMU guests come last. Each runs the .deb's release binary once that build is done (it
# goes on at idle priority beside the stages), the debug build's before: the release binary
# cost the DualSense guest 106 s and 84 CPU-seconds against 174-206 s with the debug one,
# but waiting for it left the machine half idle (250 s in a fresh run). The page's guest
# always runs it: a debug host there fell seconds behind the page's frames until the page's
# 30 s without a pong ended the session (seen in CI and 2 of 3 runs here).
release_bin="$idle/fresh-clone/.build/release/remotion"   # the .deb's, from scripts/idle-builds.sh
guest_stage() { # [VAR=VALUE…] COMMAND…: a guest stage's command with the binary that is ready
  if [[ $(cat "$idle/release.rc" 2>/dev/null) == 0 ]]; then
    echo "the guest runs the .deb's release binary"
    env REMOTION_SKIP_BUILD=1 REMOTION_BIN="$release_bin" "$@"
  else
    echo "the guest runs the debug build (the .deb's release build is not done, or failed)"
    env REMOTION_SKIP_BUILD=1 "$@"
  fi
}
page_guest_stage() { idle_built release && REMOTION_SKIP_BUILD=1 REMOTION_BIN="$release_bin" bash scripts/page-guest-test.sh; }
export -f idle_built guest_stage page_guest_stage; export idle release_bin   # timeout runs them in a new bash
deb_stage() {
  idle_built release || return 1
  local debs=("$idle"/fresh-clone/dist/remotion_*.deb)
  [[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || { echo "package.sh in the fresh clone left no single .deb: ${debs[*]}"; return 1; }
  REMOTION_DEB=${debs[0]} REMOTION_RELEASE_BIN="$release_bin" bash scripts/package-test.sh
}
# 20 s each here, FuzzHost 60 s (a regression smoke inside the CI budget); FUZZ_SECONDS=300 scripts/fuzz.sh fuzzes longer
fuzz_stage() { idle_built fuzz && FUZZ_SKIP_BUILD=1 FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash scripts/fuzz.sh; }
export -f deb_stage fuzz_stage
# The local-pads guests time their turns on the pad's clock, and a Switch Pro's emulator starved
# by a neighbour writes its reports in bursts: they hold the machine to themselves against the
# second lane's stages (the .deb's, both cores of fuzzing). A directory is the lock (mkdir is
# atomic); a lane waits for it while the other lane lives.
exclusive="$logs/exclusive.lock"
take_exclusive() { until mkdir "$exclusive" 2>/dev/null; do kill -0 "$1" 2>/dev/null || return 0; sleep 1; done; }
give_exclusive() { rmdir "$exclusive" 2>/dev/null; }
wait_for_idle_build() { # NAME: idle_status, said and timed
  local began=$SECONDS
  idle_status "$1"
  echo "=== waited $((SECONDS - began)) s for the idle-priority $1 build ($(tail -1 "$idle/$1.log" 2>/dev/null))"
  times+=("waiting for the $1 build $((SECONDS - began)) s")
}
# The second lane, beside the guests: the .deb's stage once the release build is done, then the
# fuzzers once theirs is. Its output is shown after the first lane's; its counts join the run's.
(
  lane=b; passed=0; failed=0; failures=(); times=()
  wait_for_idle_build release
  take_exclusive $$
  stage "the .deb: scripts/package.sh in a fresh clone (made at idle priority beside the stages), lintian, installed in minimal Debian 12 and 13 roots (demo, doctor, host fed from outside; Debian 13's GStreamer ABI, and with the Recommends a page over data channels)" bash -c deb_stage
  give_exclusive
  wait_for_idle_build fuzz
  take_exclusive $$
  stage "fuzzers (${FUZZ_SECONDS:-20} s each, the whole host (FuzzHost) three times as long)" bash -c fuzz_stage
  give_exclusive
  printf '%s\n' "${failures[@]}" >"$logs/lane-b.failures"; printf '%s\n' "${times[@]}" >"$logs/lane-b.times"
  echo "b_passed=$passed b_failed=$failed" >"$logs/lane-b.counts"
) >"$logs/lane-b.out" 2>&1 &
lane_b=$!
stage "uinput on Debian's kernel in QEMU (libinput reads it)" bash -c 'guest_stage bash scripts/kernel-guest-test.sh'
stage "virtual DualSense through UHID on Debian's kernel in QEMU (hid-playstation binds it; probe, SDL2 witness, host --gamepad, rumble back, a DSU source, two players in SDL, a DSU source's touchpad on the Touchpad node and through SDL; ~170-210 s)" bash -c 'guest_stage bash scripts/gamepad-guest-test.sh'
began=$SECONDS
take_exclusive "$lane_b"
times+=("waiting for the second lane's stage $((SECONDS - began)) s")
stage "local pads on Debian's kernel in QEMU (an owned DualSense's gyro moves the pointer through uinput within 2%, grab, its virtual DualSense not read back, unplug mid-press, a game's rumble and light back to it, the dashboard's list; a DualShock 4 on hid-sony and a Switch Pro on hid-nintendo, UHID emulators, each turn within 2% and a click; 40-90 s)" bash -c 'guest_stage bash scripts/localpads-guest-test.sh'
stage "local pads on Debian 12's Linux 6.12 in QEMU (the same steps on newer drivers: a DualShock 4 is hid-playstation's from 6.2, hid-nintendo names its nodes after the device; 60-280 s)" bash -c 'guest_stage REMOTION_GUEST_KERNEL=linux-image-6.12-amd64 bash scripts/localpads-guest-test.sh'
give_exclusive
[[ -s $idle/release.rc ]] || wait_for_idle_build release
stage "the phone page drives a virtual DualSense on Debian's kernel in QEMU (Chromium here, the host in the guest behind one port forwarded from 127.0.0.1, restrict=on; SDL 2 reads both sticks, L2/R2, Cross, the d-pad and the gyro within 2%, and each rest, two touchpad fingers each in its slot and the tap's click; a game's rumble and light back to the page; the release build; ~40-90 s)" bash -c page_guest_stage

wait "$lane_b"
cat "$logs/lane-b.out"
if [[ -s $logs/lane-b.counts ]]; then
  read -r b_passed b_failed < <(sed 's/b_passed=\([0-9]*\) b_failed=\([0-9]*\)/\1 \2/' "$logs/lane-b.counts")
  passed=$((passed + b_passed)); failed=$((failed + b_failed))
  while IFS= read -r f; do [[ -n $f ]] && failures+=("$f"); done <"$logs/lane-b.failures"
  while IFS= read -r t; do [[ -n $t ]] && times+=("$t"); done <"$logs/lane-b.times"
else
  failed=$((failed + 1)); failures+=("the second lane (the .deb and the fuzzers) ended without its counts")
fi
[[ -s $logs/failedb.txt ]] && cat "$logs/failedb.txt" >>"$logs/failed.txt"
wait "$idle_pid"
[[ -s $logs/failed.txt ]] && cat "$logs/failed.txt"
read -r idle_now total_now < <(cpu_idle)
echo "=== where the time went: $(IFS=','; echo "${times[*]}" | sed 's/,/, /g'); the CPUs idle $(( (idle_now - idle_at_start) * 100 / (total_now - total_at_start + 1) ))% of the time after the setup"
echo "=== the idle-priority builds: $(cat "$idle"/release.log "$idle"/fuzz.log "$idle"/roots.log 2>/dev/null | grep -o 'idle-builds: .* took [0-9]* s.*' | sed 's/idle-builds: //; s/ (wall, at idle priority)//; s/(wall, at idle priority; /(/' | paste -sd';')"
echo "=== stages: ${failures[*]:-none} failed (the whole run took $((SECONDS / 60)) min $((SECONDS % 60)) s)"
echo "stages: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
