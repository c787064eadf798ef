#!/usr/bin/env bash
# Web controller benchmark (docs/BENCHMARKS.md): page sample → injection latency next to the
# UDP client's, and host CPU per controller, in one run, inside a namespace with only lo.
#   scripts/bench-web.sh [debug|release] [seconds] [idle seconds, default 5]   (needs root, chromium, selenium)
set -u
cd "$(dirname "$0")/.."
config=${1:-release}; seconds=${2:-20}; idle=${3:-5}
. scripts/lib/private-netns.sh
NETNS_BUILD_CONFIG=$config enter_private_netns bench-web "python3 /usr/bin/chromium /usr/bin/chromedriver" "$@"
stage_workdir remotion-bench-web
export XDG_CONFIG_HOME="$work/config"
"$REMOTION_BIN" host --bind 127.0.0.1 --port 0 --inject virtual --insecure --no-discovery --dashboard-port 0 --pair-at-start \
    --web-port 0 --data-dir "$work/data" --ready-file "$work/ready.json" > "$work/host.out" 2> "$work/host.err" &
host=$!; pids+=("$host")
python3 e2e/web/consent.py "$work/data" 600 & pids+=("$!")    # accepts the bench's phones
wait_ready "$work/ready.json" "$host" 60 && ready_require "$work/ready.json" pairingURL dashboardPort >/dev/null \
  || { cat "$work/host.err"; exit 1; }
url=$(ready_value "$work/ready.json" pairingURL)
udp=$(ready_value "$work/ready.json" udp)
dash=$(ready_value "$work/ready.json" dashboardPort)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); build: $config"
SE_AVOID_STATS=true python3 e2e/bench/web_bench.py --bin "$REMOTION_BIN" --url "$url" --udp "$udp" \
    --dashboard "$dash" --host-pid "$host" --profile "$work/profile" --seconds "$seconds" --idle-seconds "$idle"
