#!/usr/bin/env bash
# Web controller transports benchmark (docs/BENCHMARKS.md): host CPU per motion
# frame and one-way latency for the UDP controller, the page on the WebSocket and the page
# on data channels, with 1 and 4 controllers at 60 Hz, in one run, inside a namespace of
# its own (lo plus a veth pair with both ends inside, as scripts/web-transport-test.sh).
#   scripts/bench-web-transport.sh [debug|release] [seconds per phase]   (root, chromium, selenium)
#
# The figures under loss, over repeated runs (the goals the stage no longer asserts):
#   scripts/bench-web-transport.sh loss [runs, 20] [log directory]
# runs scripts/web-transport-test.sh that many times (each in its own namespace; REMOTION_BIN
# and REMOTION_SKIP_BUILD as for the stage) and prints, per figure, n, min, median and max and
# in how many runs its goal was met: the data channel's p99 gap at 5% loss ≤ 1.5× UDP's and
# first move ≤ 100 ms after a 1 s outage, the WebSocket lane's ≤ 2× and ≤ 200 ms, a revoked
# phone dropped within 1 s (e2e/bench/figures_summary.py; docs/BENCHMARKS.md, "Figures that
# left the tests").
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = loss ]; then
    runs=${2:-20}; logs=${3:-$(mktemp -d /tmp/bench-web-loss.XXXXXX)}
    mkdir -p "$logs"; figures="$logs/figures.jsonl"; : >"$figures"
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); load before: $(cut -d' ' -f1-3 /proc/loadavg); logs: $logs"
    for i in $(seq "$runs"); do
        REMOTION_FIGURES="$figures" timeout -k 10 420 bash scripts/web-transport-test.sh >"$logs/run$i.log" 2>&1
        echo "run $i: $(tail -1 "$logs/run$i.log") (load $(cut -d' ' -f1 /proc/loadavg))"
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    python3 e2e/bench/figures_summary.py "$figures" --goals web-transport
    exit
fi
config=${1:-release}; seconds=${2:-10}
. scripts/lib/private-netns.sh
NETNS_BUILD_CONFIG=$config enter_private_netns bench-web-transport "python3 /usr/bin/chromium /usr/bin/chromedriver" "$@"
ip link add wb$$a type veth peer name wb$$b
ip addr add 192.0.2.1/24 dev wb$$a; ip addr add 192.0.2.2/24 dev wb$$b
ip link set wb$$a up; ip link set wb$$b up; ip route add default via 192.0.2.2 dev wb$$a
stage_workdir remotion-bench-web-transport
export XDG_CONFIG_HOME="$work/config"
"$REMOTION_BIN" host --bind 192.0.2.1 --port 0 --inject virtual --insecure --no-discovery --dashboard-port 0 --pair-at-start \
    --web-port 0 --data-dir "$work/data" --ready-file "$work/ready.json" > "$work/host.out" 2> "$work/host.err" &
host=$!; pids+=("$host")
python3 e2e/web/consent.py "$work/data" 600 & pids+=("$!")    # accepts the bench's phones
wait_ready "$work/ready.json" "$host" 60 || { cat "$work/host.err"; exit 1; }
url=$(ready_require "$work/ready.json" pairingURL) && udp=$(ready_require "$work/ready.json" udp) \
  && dash=$(ready_require "$work/ready.json" dashboardPort) || { cat "$work/host.err"; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); build: $config; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
SE_AVOID_STATS=true python3 e2e/bench/web_transport_bench.py --bin "$REMOTION_BIN" --url "$url" --udp "$udp" \
    --dashboard "$dash" --host-pid "$host" --work "$work" --seconds "$seconds"
