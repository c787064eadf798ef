# The preamble of the end-to-end stages that run inside a new network namespace that has
# only lo (root: unshare -n), in one place:
#
#   . scripts/lib/private-netns.sh
#   netns_precheck() { ...; }          # optional: more checks outside, before the build
#   enter_private_netns NAME "TOOL ..." "$@"
#
# Outside a namespace: checks unshare, ip and each TOOL, runs netns_precheck if the script
# defines it, builds remotion (unless REMOTION_SKIP_BUILD is set; NETNS_BUILD_CONFIG=release
# for a release build, debug by default), exports REMOTION_BIN (the build's binary, or the one
# REMOTION_BIN already names: then nothing asks SwiftPM where it is) and runs the script again
# inside `unshare -n` with the same arguments. Inside: brings lo up
# and refuses a namespace that has anything but lo. Failures print one line and the suite's
# "0 passed, 1 failed".

stage_fail() { # name, message
    echo "$1: $2"
    echo "0 passed, 1 failed"
    exit 1
}

enter_private_netns() { # name, tools (space-separated), the script's own arguments...
    local name=$1 tools=$2 tool config=${NETNS_BUILD_CONFIG:-debug}
    shift 2
    if [ -z "${REMOTION_IN_NETNS:-}" ]; then
        for tool in unshare ip $tools; do
            command -v "$tool" >/dev/null || stage_fail "$name" "$tool is missing (bash scripts/setup.sh installs it)"
        done
        if declare -F netns_precheck >/dev/null; then netns_precheck || exit 1; fi
        if [ -z "${REMOTION_SKIP_BUILD:-}" ]; then
            swift build -c "$config" --product remotion >/dev/null || stage_fail "$name" "build failed"
        fi
        export REMOTION_BIN="${REMOTION_BIN:-$(swift build -c "$config" --show-bin-path)/remotion}"
        [ -x "$REMOTION_BIN" ] || stage_fail "$name" "no $REMOTION_BIN (build it first)"
        exec unshare -n env REMOTION_IN_NETNS=1 "$0" "$@"
    fi
    ip link set lo up
    if ip -o link show | grep -qv ': lo:'; then stage_fail "$name" "namespace has more than lo"; fi
}
