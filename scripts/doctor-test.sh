#!/usr/bin/env bash
# `remotion doctor` on a real desk (docs/DOCTOR.md): two network namespaces joined by a veth
# pair (scripts/netns-lab.sh, each with its own D-Bus and avahi-daemon; names derived from
# this run's temp dir), a private Xvfb for DISPLAY. In the desk namespace:
#   1. nothing wrong, host not running      → exit 0, every firewall line ✓, avahi ✓
#   2. the host running                     → its announcement is visible on the veth, its ports
#                                             are held by remotion, the certificate's fingerprint
#                                             is the one in the pairing URL
#   3. nftables drops the controller port   → exit 1, the port, table, chain and a fix; running
#                                             the fix makes doctor pass again
#   4. another program on the page's port   → exit 1, names the program
#   5. no flags: the user unit's ExecStart flags are used; its broken --config is a ✗
#   6. avahi-daemon stopped                 → exit 1, says so
# Every --json output is checked with python. Prints 'N passed, N failed'. Needs root.
#   REMOTION_SKIP_BUILD=1 scripts/doctor-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."
. scripts/lib/stage.sh

for tool in ip nft Xvfb avahi-daemon dbus-daemon python3; do
    command -v "$tool" >/dev/null || { echo "doctor-test: $tool is missing (bash scripts/setup.sh installs it)"; echo "0 passed, 1 failed"; exit 1; }
done
if [ -z "${REMOTION_SKIP_BUILD:-}" ]; then
    swift build --product remotion >/dev/null || { echo "doctor-test: build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
bin=$(remotion_bin)
py=/usr/bin/python3

stage_workdir remotion-doctor
lab=$work/lab
on_exit 'bash scripts/netns-lab.sh down "$lab" >/dev/null 2>&1'

passed=0 failed=0
check() { # description, command...
    if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}

bash scripts/netns-lab.sh up "$lab" >/dev/null || { echo "doctor-test: the namespace lab did not come up"; echo "0 passed, 1 failed"; exit 1; }
. "$lab/env"
start_xvfb "$work" || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$work/home" "$work/data"
name="Remotion doctor $$"
# The desk namespace with its bus, a private HOME and data directory (an array, not a function:
# a function run with & is a subshell, and its pid is not the program's).
desk=(ip netns exec "$REMOTION_NETNS_A" env -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE HOME="$work/home"
      XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
      DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_A_BUS" DISPLAY="$DISPLAY")
doctor() { # OUT-PREFIX: text to OUT.txt, --json to OUT.json, exit codes to OUT.rc / OUT.jrc
    "${desk[@]}" "$bin" doctor --name "$name" --data-dir "$work/data" --browse-seconds 4 >"$work/$1.txt" 2>"$work/$1.err"
    echo $? >"$work/$1.rc"
    "${desk[@]}" "$bin" doctor --name "$name" --data-dir "$work/data" --browse-seconds 4 --json >"$work/$1.json" 2>>"$work/$1.err"
    echo $? >"$work/$1.jrc"
}
rc() { [ "$(cat "$work/$1.rc")" = "$2" ] && [ "$(cat "$work/$1.jrc")" = "$2" ]; }
# jq-like assertions on the --json report: python expressions over `c` (checks by id) and `r`.
json() { # OUT-PREFIX, python expression
    "$py" - "$work/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in r["checks"]}
ok = eval(sys.argv[2])
if not ok:
    print("  failed: " + sys.argv[2], file=sys.stderr)
    for x in r["checks"]: print("  " + json.dumps(x), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}
has() { grep -qF -- "$2" "$work/$1.txt" || { echo "  no line with: $2"; sed 's/^/  | /' "$work/$1.txt"; return 1; }; }

# 1. Nothing in the way; the host is not running.
doctor clean
check "clean desk: exit 0 (text and --json)" rc clean 0
check "clean desk: the QR points at the desk's veth" json clean "c['network.qr']['details']['address'] == '$REMOTION_NETNS_A_ADDR' and c['network.qr']['details']['interface'] == '$REMOTION_NETNS_A_IF'"
check "clean desk: every firewall line passes" json clean "all(c[k]['status'] == 'pass' for k in ['firewall.controller', 'firewall.web', 'firewall.webrtc', 'firewall.mdns'])"
check "clean desk: avahi-daemon is running" json clean "c['avahi']['status'] == 'pass'"
check "clean desk: the injector auto picks works here (xtest: DISPLAY set; uinput where writable)" json clean "c['injector']['status'] == 'pass' and c['injector']['details']['injector'] in ('xtest', 'uinput')"
check "clean desk: ok is true and each check has id, status, message, fix" json clean "r['ok'] is True and all(set(x) >= {'id', 'status', 'message', 'fix', 'details'} for x in r['checks'])"
check "clean desk: one line per check, then the summary" json clean "len(open('$work/clean.txt').read().splitlines()) == len(r['checks']) + 1 and open('$work/clean.txt').read().splitlines()[-1].startswith('nothing stops a phone')"

# 2. The host runs (log injector): its announcement, its ports, its certificate.
"${desk[@]}" "$bin" host --inject log --name "$name" --data-dir "$work/data" --no-dashboard --pair-at-start --ready-file "$work/ready.json" \
    >"$work/host.out" 2>"$work/host.err" &
host_pid=$!; pids+=("$host_pid")
if wait_ready "$work/ready.json" "$host_pid"; then
    fp=$(ready_value "$work/ready.json" pairingURL | sed 's/.*fp=//')
    doctor running
    check "host running: exit 0" rc running 0
    check "host running: its announcement is visible on the veth" json running "c['avahi.service']['status'] == 'pass' and c['avahi.service']['details']['interface'] == '$REMOTION_NETNS_A_IF'"
    check "host running: its ports are held by remotion, not 'taken'" json running "all(c[k]['status'] == 'pass' and 'remotion' in c[k]['message'] for k in ['ports.controller', 'ports.web'])"
    check "host running: the certificate's fingerprint is the pairing URL's" json running "c['certificate']['status'] == 'pass' and c['certificate']['details']['fingerprint'] == '$fp'"
else
    check "host running: the host started" false
fi
stop_pid "$host_pid"

# 3. nftables drops the controller port in the desk.
ip netns exec "$REMOTION_NETNS_A" nft -f - <<'NFT'
table inet doctortest {
  chain input {
    type filter hook input priority 0; policy accept;
    ct state established,related accept
    udp dport 7474 drop
  }
}
NFT
doctor dropped
check "controller port dropped: exit 1" rc dropped 1
check "controller port dropped: the line names the port, table, chain and a fix" has dropped \
    "✗ controller port 7474/udp on $REMOTION_NETNS_A_IF is dropped by nftables table inet doctortest, chain input, rule \"udp dport 7474 drop\" — fix: sudo nft insert rule inet doctortest input position"
check "controller port dropped: --json says the same" json dropped "r['ok'] is False and c['firewall.controller']['status'] == 'fail' and c['firewall.controller']['details']['table'] == 'inet doctortest' and c['firewall.controller']['details']['chain'] == 'input' and c['firewall.controller']['details']['port'] == '7474/udp'"
check "controller port dropped: only that line fails (the host is stopped: its port is free)" json dropped "[x['id'] for x in r['checks'] if x['status'] == 'fail'] == ['firewall.controller'] and c['ports.controller']['message'].endswith('free')"
fix=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["checks"][1]["fix"].split(";")[0].removeprefix("sudo "))' "$work/dropped.json")
ip netns exec "$REMOTION_NETNS_A" $fix
doctor fixed
check "the printed fix ($fix) makes doctor pass" rc fixed 0
ip netns exec "$REMOTION_NETNS_A" nft delete table inet doctortest

# 4. Another program holds the page's port.
ip netns exec "$REMOTION_NETNS_A" "$py" -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("0.0.0.0", 7476)); s.listen()
open(sys.argv[1], "w").write("ok"); time.sleep(120)' "$work/squat.ready" &
squatter_pid=$!; pids+=("$squatter_pid")
for _ in $(seq 1 100); do [ -s "$work/squat.ready" ] && break; sleep 0.05; done
doctor squatted
check "page port taken: exit 1, the program named" json squatted "c['ports.web']['status'] == 'fail' and 'python3' in c['ports.web']['message'] and r['ok'] is False"
stop_pid "$squatter_pid"

# 5. No flags: the installed user unit's ExecStart flags are the host's; a broken config file
#    (passed there) is a problem of its own.
mkdir -p "$work/home/.config/systemd/user"
printf '[Service]\nExecStart=/usr/bin/remotion host --port 7600 --no-web --config %s\n' "$work/bad.toml" \
    >"$work/home/.config/systemd/user/remotion-host.service"
printf '[mapping]\nno_such_key = 1\n' >"$work/bad.toml"
"${desk[@]}" "$bin" doctor --json --browse-seconds 1 >"$work/unit.json" 2>"$work/unit.err"
check "no flags: the unit's flags are checked (port 7600, no page)" json unit "c['flags']['status'] == 'pass' and c['firewall.controller']['details']['port'] == '7600/udp' and 'firewall.web' not in c"
check "no flags: the unit's broken config is a failure naming the file and line" json unit "c['config']['status'] == 'fail' and '$work/bad.toml:2' in c['config']['message'] and r['ok'] is False"
rm -r "$work/home/.config/systemd"

# 6. avahi-daemon stopped in the desk.
kill "$(cat "$lab/a/avahi.pid")"
for _ in $(seq 1 100); do kill -0 "$(cat "$lab/a/avahi.pid")" 2>/dev/null || break; sleep 0.05; done
doctor noavahi
check "avahi stopped: exit 1" rc noavahi 1
check "avahi stopped: the line says so, with the fix" has noavahi "✗ avahi-daemon is not running"
check "avahi stopped: --json says so" json noavahi "c['avahi']['status'] == 'fail' and 'systemctl enable --now avahi-daemon' in c['avahi']['fix']"

if [ "$failed" -ne 0 ]; then
    for f in clean running dropped noavahi; do [ -f "$work/$f.txt" ] && { echo "--- doctor ($f)"; cat "$work/$f.txt" "$work/$f.err"; }; done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
