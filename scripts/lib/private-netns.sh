# The preamble of the end-to-end stages that run inside a new network namespace that has
# only lo (root: unshare -n), in one place:
#
#   . scripts/lib/private-netns.sh
#   netns_precheck() { ...; }          # optional: more checks outside, before the build
#   enter_private_netns NAME "TOOL ..." "$@"
#
# Outside a namespace: checks unshare, ip and each TOOL (py:MODULE: that /usr/bin/python3
# imports MODULE), runs netns_precheck if the script
# defines it, exports REMOTION_BIN from build_remotion (scripts/lib/stage.sh: built unless
# REMOTION_SKIP_BUILD is set or REMOTION_BIN already names the binary; NETNS_BUILD_CONFIG=release
# for a release build, debug by default) and runs the script again inside `unshare -n` with the
# same arguments. Inside: brings lo up and refuses a namespace that has anything but lo.
# Failures print one line and the suite's "0 passed, 1 failed". The rest of stage.sh
# (stage_workdir, pids, on_exit, ...) is there too.

. scripts/lib/stage.sh

enter_private_netns() { # name, tools (space-separated), the script's own arguments...
    local name=$1 tools=$2 tool config=${NETNS_BUILD_CONFIG:-debug}
    shift 2
    if [ -z "${REMOTION_IN_NETNS:-}" ]; then
        for tool in unshare ip $tools; do
            case $tool in
            py:*) /usr/bin/python3 -c "import ${tool#py:}" 2>/dev/null \
                    || stage_fail "$name" "Python's ${tool#py:} is missing (bash scripts/setup.sh --test installs it)" ;;
            *) command -v "$tool" >/dev/null || stage_fail "$name" "$tool is missing (bash scripts/setup.sh installs it)" ;;
            esac
        done
        if declare -F netns_precheck >/dev/null; then netns_precheck || exit 1; fi
        REMOTION_BIN=$(build_remotion "$config") || stage_fail "$name" "build failed"; export REMOTION_BIN
        [ -x "$REMOTION_BIN" ] || stage_fail "$name" "no $REMOTION_BIN (build it first)"
        exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
    fi
    ip link set lo up
    if ip -o link show | grep -qv ': lo:'; then stage_fail "$name" "namespace has more than lo"; fi
}
