# The plumbing the stage and bench scripts share, each piece once (scripts/lib/README.md).
# Source it from the repository's root (every script cds there first):
#
#   . scripts/lib/stage.sh
#   stage_workdir remotion-NAME       work=a new directory under $TMPDIR (/tmp); arms the EXIT trap
#   pids+=("$!")                      a process the script started: stopped and waited for at exit
#   stop_pid PID [SIGNAL]             stops one of them now (TERM), waits (its status) and forgets it
#   wait_pid PID                      waits for one of them to end by itself (its status), forgets it
#   on_exit COMMAND...                more to do at exit (tear a lab down, copy logs out of $work)
#   bin=$(remotion_bin [CONFIG])      the remotion binary: $REMOTION_BIN, else SwiftPM's for CONFIG
#   bin=$(build_remotion [CONFIG])    the same, built first (unless REMOTION_SKIP_BUILD or REMOTION_BIN)
#   dir=$(swift_bin_dir [CONFIG])     where SwiftPM puts CONFIG's (debug's) products
#   port=$(free_udp_port)             a UDP (free_tcp_port: TCP) port on 127.0.0.1 the kernel picked
#   stage_fail NAME MESSAGE           the stage's one line and "0 passed, 1 failed", exit 1
#   wayland_client_prechecks NAME     root, and what building the Wayland witness clients needs
#   start_stage_host NAME "KEY..." FLAGS...   `$REMOTION_BIN host` on 127.0.0.1 (ports from the
#                                     kernel, no discovery, data in $work/data, output in
#                                     $work/host.out and host.err, env from the host_env array);
#                                     sets host_pid (in pids); waits for $work/ready.json with
#                                     every KEY in it, else fails the stage with the host's stderr
#
# At exit, in this order: every pid in `pids` gets $stop_signal (TERM unless the script sets
# it, e.g. INT for a host that should unwind) and is waited for; the on_exit commands run,
# newest first; then the directory stage_workdir made is removed (KEEP_WORK=1 keeps it and
# says where). The exit status is the script's. It also sources ready.sh (wait_ready,
# ready_value, ready_require) and xvfb.sh (start_xvfb, whose server joins `pids`; the X
# witnesses).

pids=()
stop_signal=TERM
work=""
_stage_workdir=""   # the directory stage_workdir made: the only one the trap removes
_stage_exit_commands=()

stage_workdir() { # [PREFIX]
    work=$(mktemp -d "${TMPDIR:-/tmp}/${1:-remotion}.XXXXXX") || { echo "no temporary directory" >&2; exit 1; }
    _stage_workdir=$work
    trap _stage_exit EXIT
}

stop_pid() { # PID [SIGNAL]
    kill "-${2:-TERM}" "$1" 2>/dev/null
    wait_pid "$1"
}

wait_pid() { # PID: once waited for, a pid is never signalled again (the kernel may reuse it)
    local pid=$1 kept=() p status
    wait "$pid" 2>/dev/null; status=$?
    for p in "${pids[@]}"; do [[ $p == "$pid" ]] || kept+=("$p"); done
    pids=("${kept[@]}")
    return "$status"
}

on_exit() { # COMMAND... (one shell word list, run with eval at exit)
    _stage_exit_commands+=("$*")
    trap _stage_exit EXIT
}

_stage_exit() {
    local status=$? p i
    set +e
    for p in "${pids[@]}"; do kill "-$stop_signal" "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    for ((i = ${#_stage_exit_commands[@]} - 1; i >= 0; i--)); do eval "${_stage_exit_commands[i]}"; done
    if [[ -n $_stage_workdir ]]; then
        if [[ -n ${KEEP_WORK:-} ]]; then echo "kept $_stage_workdir" >&2; else rm -rf "$_stage_workdir"; fi
    fi
    return "$status"
}

swift_bin_dir() { # [CONFIG]
    swift build -c "${1:-debug}" --show-bin-path
}

remotion_bin() { # [CONFIG]: $REMOTION_BIN when set (then nothing asks SwiftPM)
    if [[ -n ${REMOTION_BIN:-} ]]; then
        printf '%s\n' "$REMOTION_BIN"
    else
        printf '%s/remotion\n' "$(swift_bin_dir "${1:-debug}")"
    fi
}

build_remotion() { # [CONFIG]: builds the product, then prints remotion_bin; one line if it fails
    if [[ -z ${REMOTION_SKIP_BUILD:-} && -z ${REMOTION_BIN:-} ]]; then
        swift build -c "${1:-debug}" --product remotion >/dev/null || { echo "the build of remotion failed" >&2; return 1; }
    fi
    remotion_bin "${1:-debug}"
}

# A port on 127.0.0.1 free now, for a peer started later. Taken below the kernel's ephemeral
# range (net.ipv4.ip_local_port_range): a port the kernel handed out and took back could go
# at once to any socket bound to port 0, e.g. the host's own DSU client socket, and the peer
# then fails with "Address already in use" (seen once in dsu-e2e).
free_udp_port() { _free_port SOCK_DGRAM; }
free_tcp_port() { _free_port SOCK_STREAM; }
_free_port() {
    python3 -c 'import random, socket, sys
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for port in random.sample(range(10000, low), 200):
    s = socket.socket(socket.AF_INET, getattr(socket, sys.argv[1]))
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
else:
    sys.exit("no free port below the ephemeral range")' "$1"
}

stage_fail() { # NAME MESSAGE
    echo "$1: $2"
    echo "0 passed, 1 failed"
    exit 1
}

host_env=()
start_stage_host() { # NAME "KEY..." FLAGS...
    local name=$1 keys=$2; shift 2
    env "${host_env[@]}" "$REMOTION_BIN" host --bind 127.0.0.1 --port 0 --no-discovery --data-dir "$work/data" \
        --ready-file "$work/ready.json" "$@" >"$work/host.out" 2>"$work/host.err" &
    host_pid=$!; pids+=("$host_pid")
    # shellcheck disable=SC2086  # the keys are words
    if ! wait_ready "$work/ready.json" "$host_pid" 30 || ! ready_require "$work/ready.json" $keys >/dev/null; then
        echo "$name: the host did not become ready:"; cat "$work/host.err"
        echo "0 passed, 1 failed"; exit 1
    fi
}

. scripts/lib/ready.sh
. scripts/lib/xvfb.sh

wayland_client_prechecks() { # NAME: root (useradd, unshare -n) and the witness clients' build needs
    [ "$(id -u)" = 0 ] || stage_fail "$1" "needs root (useradd, unshare -n)"
    pkg-config --exists wayland-client xkbcommon \
        || stage_fail "$1" "libwayland-dev and libxkbcommon-dev are missing (bash scripts/setup.sh installs them)"
    [ -f /usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml ] \
        || stage_fail "$1" "wayland-protocols is missing (bash scripts/setup.sh installs it)"
}
