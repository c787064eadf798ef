#!/usr/bin/env bash
# Discovery end to end across a real link: two network namespaces joined by a veth
# pair, each with its own D-Bus and avahi-daemon (scripts/netns-lab.sh). Nothing
# multicasts outside these namespaces.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/stage.sh
bin=$(remotion_bin)
stage_workdir remotion-disc
lab=$work
stop_signal=INT
on_exit 'bash scripts/netns-lab.sh down "$lab" >/dev/null 2>&1'
bash scripts/netns-lab.sh up "$lab" >/dev/null || { echo "discovery-e2e: lab did not start"; exit 1; }
. "$lab/env"
in_a() { ip netns exec "$REMOTION_NETNS_A" env DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_A_BUS" "$@"; }
in_b() { ip netns exec "$REMOTION_NETNS_B" env DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_B_BUS" "$@"; }
# Starts a command in namespace A in the background; $! is then its own pid (ip and env exec).
spawn_a() { ip netns exec "$REMOTION_NETNS_A" env DBUS_SYSTEM_BUS_ADDRESS="$REMOTION_NETNS_A_BUS" "$@" & }
passed=0; failed=0
check() { local name=$1; shift; if "$@"; then passed=$((passed+1)); echo "ok   $name"; else failed=$((failed+1)); echo "FAIL $name"; fi; }
wait_for() { for _ in $(seq 60); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

# Pair B's controller with A's host through the real flow, across the link.
spawn_a "$bin" pair --listen --yes --port 7474 --advertise 10.77.0.1:7474 --window 30 --data-dir "$lab/a-keys" >"$lab/pair.out" 2>"$lab/pair.err"
listener=$!; pids+=($listener)
wait_for "$lab/pair.out" '^remotion-pair:'
in_b "$bin" pair "$(grep -m1 '^remotion-pair:' "$lab/pair.out")" --name lab-b --data-dir "$lab/b-keys" >/dev/null 2>"$lab/pair-b.err"
check "B pairs with A across the link" test $? -eq 0
wait_pid "$listener"
export REMOTION_HOST_FLAGS="--data-dir $lab/a-keys ${REMOTION_HOST_FLAGS:-}"
export REMOTION_CLIENT_FLAGS="--data-dir $lab/b-keys ${REMOTION_CLIENT_FLAGS:-}"

spawn_a "$bin" host --inject log --name "Lab Host" ${REMOTION_HOST_FLAGS:-} >"$lab/a.out" 2>"$lab/a.err"; host_a=$!; pids+=($host_a)
check "host in A announces itself" wait_for "$lab/a.err" 'announced as "Lab Host"'

in_b "$bin" hosts --timeout 3 >"$lab/hosts.txt" 2>&1
check "remotion hosts in B lists the host in A" grep -q "^Lab Host	.*10.77.0.1.*port 7474.*v=1" "$lab/hosts.txt"
fp=$(sed -n 's/^host fingerprint: //p' "$lab/pair.out")
check "the TXT record carries the host key fingerprint" grep -q "id=$fp" "$lab/hosts.txt"
in_b "$bin" hosts --timeout 2 --json >"$lab/hosts.json" 2>&1
check "remotion hosts --json is JSON with the TXT record" python3 -c "
import json,sys; h=[json.loads(l) for l in open('$lab/hosts.json') if l.strip()]
sys.exit(0 if any(x['name']=='Lab Host' and x['txt'].get('v')=='1' and x['port']==7474 for x in h) else 1)"
in_b avahi-browse -rtp _remotion._udp >"$lab/browse.txt" 2>&1
check "avahi-browse in B sees the service with its TXT record" grep -q '^=;.*Lab\\032Host;_remotion._udp;.*;7474;.*"v=1"' "$lab/browse.txt"

t0=$(date +%s.%N)
in_b "$bin" client ${REMOTION_CLIENT_FLAGS:-} --duration 2 --press A@0.5+0.3 >"$lab/client.out" 2>"$lab/client.err"
rc=$?
check "remotion client in B (no address) finds, connects and streams (rc $rc)" test "$rc" -eq 0
check "client connected to the discovered host" grep -q 'connected to "Lab Host"' "$lab/client.err"
sleep 0.3
moves=$(grep -c '"move_to"' "$lab/a.out")
check "host in A injected the streamed motion ($moves moves)" test "$moves" -gt 100
check "host in A injected exactly one left click" test "$(grep -c '"button":"left","state":"down"' "$lab/a.out")" -eq 1

spawn_a "$bin" host --inject log --name "Lab Host" --port 7475 ${REMOTION_HOST_FLAGS:-} >"$lab/a2.out" 2>"$lab/a2.err"; host_a2=$!; pids+=($host_a2)
check "a second host with the same name is renamed" wait_for "$lab/a2.err" 'announced as "Lab Host #2"'
in_b "$bin" client ${REMOTION_CLIENT_FLAGS:-} --host-name "Lab Host #2" --duration 1 >/dev/null 2>"$lab/client2.err"
check "both same-named hosts stay reachable (picked by --host-name)" grep -q 'connected to "Lab Host #2"' "$lab/client2.err"

stop_pid "$host_a2" INT
gone=1
for _ in $(seq 10); do
  in_b "$bin" hosts --timeout 0.5 >"$lab/after.txt" 2>/dev/null
  grep -q "^Lab Host #2	" "$lab/after.txt" || { gone=0; break; }
done
check "a host that stops disappears from the list within a few seconds" test "$gone" -eq 0

in_b "$bin" client ${REMOTION_CLIENT_FLAGS:-} --host-name "Nobody" --browse-timeout 1 --duration 1 2>"$lab/none.err"; rc=$?
check "an unknown --host-name fails with a clear line" test "$rc" -ne 0 -a "$(wc -l <"$lab/none.err")" -le 2
grep -q 'no host named "Nobody"' "$lab/none.err" || cat "$lab/none.err"

echo "discovery-e2e: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
