# One receiver under one load, the way scripts/bench.sh measures it against the floor; also
# scripts/bench-gamepad.sh. Source it after setting these (the caller owns them):
#   bin      the remotion binary          load     the remotion-load binary
#   work     a scratch directory          seconds  seconds of streaming per run
#   rcvbuf   the floor's receive buffer   pids     an array the caller's EXIT trap stops
#   floor    the compiled e2e/bench/floor-recv (only for mode floor)
#   nio_floor the remotion-nio-floor binary (only for mode nio)
#   HOST_FLAGS (optional)  more flags for the host
#   COUNT_ALLOCS=1 (optional) the host runs with $work/malloc-count.so preloaded (bench.sh
#            compiles it) and the line gets "allocs N": every allocation of its run, start to stop
#
#   run_receiver MODE SESSIONS RATE   -> one result line on stdout:
#     MODE SESSIONS RATE <remotion-load's line> stop: <the receiver's last line>
#   MODE: floor (the C receiver, raw datagrams), nio (SwiftNIO's datagram channel alone, raw
#   datagrams: Sources/Testing/NIOFloor), plain (remotion host --insecure --inject
#   virtual), noise (the same with Noise IK sessions; needs keys paired into $work/h and
#   $work/c) or base (plain, served by the binary $BASE_BIN: another build, for a before and
#   after in one run). The sender reads the receiver's CPU and kernel drops from /proc; the
#   receiver is stopped with SIGINT and waited for.
. scripts/lib/ready.sh

wait_port() { # file pattern -> port (the C floor receiver's port file)
  for _ in $(seq 200); do
    local p; p=$(sed -n "$2" "$1" 2>/dev/null | head -1)
    [[ -n "$p" ]] && { echo "$p"; return; }
    sleep 0.05
  done
  echo "no port in $1" >&2; cat "$1" >&2; return 1
}

run_receiver() { # mode sessions rate -> one result line
  local mode=$1 n=$2 rate=$3 rpid port out
  if [[ $mode == floor || $mode == nio ]]; then
    local receiver=$floor
    [[ $mode == nio ]] && receiver=${nio_floor:?mode nio needs nio_floor, the remotion-nio-floor binary}
    rm -f "$work/floor.port"
    "$receiver" "$work/floor.port" "$rcvbuf" $((${seconds%.*} + 30)) >"$work/floor.out" & rpid=$!; pids+=($rpid)
    port=$(wait_port "$work/floor.port" 's/^\([0-9]*\)$/\1/p')
    out=$("$load" --port "$port" --sessions "$n" --rate "$rate" --seconds "$seconds" --mode raw --receiver-pid "$rpid")
    kill -INT "$rpid"; wait "$rpid" || true
    echo "$mode $n $rate $out stop: $(cat "$work/floor.out")"
  else
    local flags=(--bind 127.0.0.1 --port 0 --inject virtual --no-discovery --no-dashboard --no-web
                 --max-controllers 256 --data-dir "$work/h" ${HOST_FLAGS:-})
    local rbin=$bin
    [[ $mode == plain || $mode == base ]] && flags+=(--insecure)
    [[ $mode == base ]] && rbin=${BASE_BIN:?mode base needs BASE_BIN, a remotion binary}
    rm -f "$work/ready.json" "$work"/allocs.*
    local preload=()
    [[ -n ${COUNT_ALLOCS:-} ]] && preload=(env LD_PRELOAD="$work/malloc-count.so" MALLOC_COUNT_FILE="$work/allocs")
    "${preload[@]}" "$rbin" host "${flags[@]}" --ready-file "$work/ready.json" >/dev/null 2>"$work/host.err" & rpid=$!; pids+=($rpid)
    wait_ready "$work/ready.json" "$rpid" 60 || { cat "$work/host.err" >&2; return 1; }
    port=$(ready_value "$work/ready.json" udpPort)
    local lmode=plain; [[ $mode == noise ]] && lmode=noise
    out=$("$load" --port "$port" --sessions "$n" --rate "$rate" --seconds "$seconds" --mode "$lmode" \
          --data-dir "$work/c" --receiver-pid "$rpid")
    kill -INT "$rpid"; wait "$rpid" || true
    local allocs=""
    [[ -n ${COUNT_ALLOCS:-} ]] && allocs=" allocs $(cat "$work/allocs.$rpid" 2>/dev/null || echo -1)"
    echo "$mode $n $rate $out$allocs stop: $(grep 'stopped after' "$work/host.err")"
  fi
}
