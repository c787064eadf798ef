#!/usr/bin/env bash
# The dashboard's launcher against another local user (docs/SECURITY.md §5.3, "The launcher"):
# the host keeps the dashboard's tokened address in $XDG_RUNTIME_DIR (0600), writes it once
# the dashboard listens, removes it when binding fails and when it stops; `remotion dashboard`
# (and --start, the app menu's entry) opens it only when the server on that port proves it
# holds the token, without sending the token. A host killed with SIGKILL leaves its address
# file; another user (nobody) then listens on its port and answers everything with 200: the
# launcher opens no browser, prints no address, says one line, and nothing it sent carries
# the token. `dashboard --start` writes systemctl's errors to a mkstemp file in
# $XDG_RUNTIME_DIR, not a predictable name in /tmp. Inside a new network namespace that has
# only lo. Needs root (unshare -n, runuser). Prints 'N passed, N failed'.
#   REMOTION_SKIP_BUILD=1 scripts/dashboard-launch-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns dashboard-launch-test "python3 setpriv" "$@"
. scripts/lib/ready.sh

bin=$REMOTION_BIN
work=$(mktemp -d)
chmod 755 "$work"        # nobody runs the impostor from here; the runtime directory stays 0700
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
passed=0; failed=0
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

runtime="$work/runtime"; data="$work/data"
mkdir -p "$runtime" "$work/fakebin" "$work/home" && chmod 700 "$runtime"
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/home/data"
# The browser: a recording xdg-open (any call is a failure below).
cat >"$work/fakebin/xdg-open" <<FAKE
#!/bin/sh
printf '%s\n' "\$*" >>"$work/xdg-open.calls"
FAKE
# systemd --user cannot run here: a recording systemctl that fails the way a missing unit does,
# and records where its standard error goes.
cat >"$work/fakebin/systemctl" <<FAKE
#!/bin/sh
printf '%s\n' "\$*" >>"$work/systemctl.calls"
readlink /proc/\$\$/fd/2 >>"$work/systemctl.stderr"
echo "Failed to start remotion-host.service: Unit remotion-host.service not found." >&2
exit 5
FAKE
chmod +x "$work/fakebin/xdg-open" "$work/fakebin/systemctl"
launcher() { PATH="$work/fakebin:$PATH" DISPLAY=:99 XDG_RUNTIME_DIR="$runtime" "$bin" dashboard --data-dir "$data" "$@"; }
address_files() { ls "$runtime/remotion" 2>/dev/null | grep '^dashboard-address-'; ls "$data" 2>/dev/null | grep '^dashboard-url$'; }

start_host() { # ready file, extra arguments...
  local ready=$1; shift
  XDG_RUNTIME_DIR="$runtime" "$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-web \
    --data-dir "$data" --ready-file "$ready" "$@" >/dev/null 2>"$ready.err" &
  host_pid=$!; pids+=("$host_pid")
  wait_ready "$ready" "$host_pid" 30
}

# 1. The host keeps the address in $XDG_RUNTIME_DIR, 0600, and nowhere in the data directory.
start_host "$work/one.json" --dashboard-port 0
port=$(ready_value "$work/one.json" dashboardPort)
url=$(ready_value "$work/one.json" dashboardURL)
token=${url#*#token=}
file=$(ls -d "$runtime"/remotion/dashboard-address-* 2>/dev/null | head -1)
check "the address is kept in XDG_RUNTIME_DIR/remotion (0600), not in the data directory" \
  bash -c "test -n '$file' && test \"\$(stat -c %a '$file')\" = 600 && grep -qxF -- '$url' '$file' && test ! -e '$data/dashboard-url'"
check "remotion dashboard --print gives the running host's address (its server proves the token)" \
  test "$(launcher --print 2>"$work/print.err")" = "$url"

# 2. The host dies without cleaning up (SIGKILL): its address file stays. Another user listens
#    on that port and answers every request with 200 and a made-up proof.
kill -9 "$host_pid"; wait "$host_pid" 2>/dev/null
mkdir -m 777 "$work/impostor"
cat >"$work/impostor.py" <<'PY'
import socket, sys
port, out = int(sys.argv[1]), sys.argv[2]
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(16)
open(out + "/ready", "w").close()
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try: request = c.recv(65536)
    except OSError: request = b""
    with open(out + "/requests", "ab") as f: f.write(request + b"\n--\n")
    body = b'{"proof":"' + b"0" * 64 + b'"}'
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    c.close()
PY
# setpriv execs (its pid is the impostor's, so the stage stops it by pid; runuser forked and
# left it behind); Debian's python3, as nobody cannot reach root's own interpreter.
setpriv --reuid=nobody --regid=nogroup --clear-groups /usr/bin/python3 "$work/impostor.py" "$port" "$work/impostor" 2>/dev/null &
impostor=$!; pids+=("$impostor")
for _ in $(seq 100); do [[ -e $work/impostor/ready ]] && break; sleep 0.05; done
check "another user (nobody) listens on the dead host's dashboard port $port" test -e "$work/impostor/ready"
check "... and the dead host's address file is still there" test -n "$(address_files)"

launcher >"$work/open.out" 2>"$work/open.err"; rc=$?
check "remotion dashboard does not open a server that cannot prove the token (exit $rc, no browser)" \
  bash -c "test $rc -ne 0 && test ! -e '$work/xdg-open.calls'"
check "... says so in one line: $(head -c 300 "$work/open.err")" \
  bash -c "test \$(wc -l <'$work/open.err') -eq 1 && grep -q 'not this host.s dashboard' '$work/open.err'"
launcher --start --print >"$work/start.out" 2>"$work/start.err"; rc=$?
check "dashboard --start --print neither prints the address nor starts a host on its behalf (exit $rc)" \
  bash -c "test $rc -ne 0 && ! grep -qF -- '$token' '$work/start.out' '$work/start.err' && test ! -e '$work/systemctl.calls' &&
           grep -q 'not this host.s dashboard' '$work/start.err'"
check "... and the token never reached the other user's server" \
  bash -c "test -s '$work/impostor/requests' && ! grep -qF -- '$token' '$work/impostor/requests'"

# 3. A host whose dashboard cannot bind (the other user still holds the port) removes the
#    stale address file instead of leaving it to be opened.
start_host "$work/two.json" --dashboard-port "$port"
check "a host whose dashboard port is taken says so" grep -q "dashboard off: 127.0.0.1 port $port is in use" "$work/two.json.err"
check "... and removes the stale address file: [$(address_files)]" test -z "$(address_files)"
kill -INT "$host_pid"; wait "$host_pid" 2>/dev/null
kill "$impostor"; wait "$impostor" 2>/dev/null

# 4. A host that stops removes its address file.
start_host "$work/three.json" --dashboard-port 0
check "a running host has its address file" test -n "$(address_files)"
kill -INT "$host_pid"; wait "$host_pid" 2>/dev/null
check "... removed when it stops" test -z "$(address_files)"

# 5. With no host, --start runs systemctl with its standard error in a mkstemp file under
#    XDG_RUNTIME_DIR (gone afterwards), and its words reach the one line said.
launcher --start --print >/dev/null 2>"$work/start2.err"; rc=$?
where=$(head -1 "$work/systemctl.stderr" 2>/dev/null)
check "systemctl's errors go to a private file in XDG_RUNTIME_DIR, not /tmp ($where)" \
  bash -c "[[ '$where' == '$runtime/remotion/systemctl-'* ]] && test \$(ls '$runtime/remotion' | grep -c '^systemctl-') -eq 0"
check "... and what it said is the one line: $(head -c 300 "$work/start2.err")" \
  bash -c "test $rc -ne 0 && test \$(wc -l <'$work/start2.err') -eq 1 && grep -q 'Unit remotion-host.service not found' '$work/start2.err'"

# 6. No runtime directory (no login session): one line each that names XDG_RUNTIME_DIR.
env -u XDG_RUNTIME_DIR PATH="$work/fakebin:$PATH" "$bin" dashboard --print --data-dir "$data" >/dev/null 2>"$work/noruntime.err"; rc=$?
check "remotion dashboard without XDG_RUNTIME_DIR: one line naming it (exit $rc)" \
  bash -c "test $rc -ne 0 && test \$(wc -l <'$work/noruntime.err') -eq 1 && grep -q 'XDG_RUNTIME_DIR' '$work/noruntime.err'"
env -u XDG_RUNTIME_DIR "$bin" host --bind 127.0.0.1 --port 0 --inject log --no-discovery --no-web --dashboard-port 0 \
  --data-dir "$data" --ready-file "$work/four.json" >/dev/null 2>"$work/four.err" &
host_pid=$!; pids+=("$host_pid")
wait_ready "$work/four.json" "$host_pid" 30
kill -INT "$host_pid"; wait "$host_pid" 2>/dev/null
check "a host without XDG_RUNTIME_DIR says in one line that its dashboard's address is not kept" \
  bash -c "test \$(grep -c 'XDG_RUNTIME_DIR' '$work/four.err') -eq 1 && test ! -e '$data/dashboard-url'"

echo "$passed passed, $failed failed"
((failed == 0))
