# The desk for the phone page's stages (sourced after scripts/lib/stage.sh, whose exit trap
# stops what it starts; the caller defines `fail`):
#   start_web_desk WORK    a private Xvfb with X's own event stream (WORK/xi2.log) and a
#                          keyboard witness (WORK/xev.log) as witnesses; `remotion host --inject
#                          xtest` on loopback with a pairing window in its ready file; and the
#                          person at the computer, accepting each phone that asks to pair
#                          (e2e/web/consent.py; consent itself is tested by web-controller-test).
#                          Sets `url` (the pairing link) and `hostpid`; the host's output is
#                          WORK/host.out and WORK/host.err. More host flags after WORK; more
#                          config.toml (after its [mapping]) in `desk_config_extra`.
start_web_desk() {
    local work=$1 xi2 kw
    shift
    start_xvfb "$work" || fail "Xvfb (desk) did not start"
    start_xi2_witness "$work/xi2.log"; xi2=$?
    pids+=($xi2_pid)
    [ $xi2 -eq 0 ] || fail "xinput test-xi2 reported no event within 5 s"
    start_key_witness "$work/xev.log"; kw=$?
    pids+=($key_pid)
    [ $kw -eq 0 ] || fail "no keyboard witness"
    # No user config: the default button map and settings, but for flick stick on the right
    # stick in FPS mode with a full turn of 400 counts (the Gamepad mode's stick check).
    export XDG_CONFIG_HOME="$work/config"
    mkdir -p "$work/config/remotion"
    printf '[mapping]\n"fps.calibration" = "counts"\n"fps.counts_per_360" = 400\n"flick.stick" = "right"\n' \
        > "$work/config/remotion/config.toml"
    # A stage's own config after it (`desk_config_extra`, e.g. a [[profile]]).
    [ -z "${desk_config_extra:-}" ] || printf '%s\n' "$desk_config_extra" >> "$work/config/remotion/config.toml"
    # The host's readiness signal carries the pairing link (scripts/lib/ready.sh).
    start_stage_host "the desk" pairingURL --inject xtest --no-dashboard --pair-at-start --web-port 0 "$@"
    hostpid=$host_pid url=$(ready_value "$work/ready.json" pairingURL)
    python3 e2e/web/consent.py "$work/data" 300 &
    pids+=($!)
}
