#!/usr/bin/env bash
# A key in the host's terminal view answers the phone it shows
# (e2e/terminal/consent_keys.py): `remotion host` in a 110×45 tmux pane (auto injector →
# the log injector: no DISPLAY, REMOTION_NO_UINPUT=1), phones asking over HTTPS, keys typed
# with tmux send-keys and pasted with tmux paste-buffer -p (a word typed in one go and a paste
# answer nothing); then Ctrl-C stops the host and the terminal is back in canonical mode with
# echo and bracketed paste off (the pane's output, recorded with pipe-pane, turned it on and
# then off last). Inside a new network namespace that has only lo. Prints 'N passed, N failed'.
#   REMOTION_SKIP_BUILD=1 scripts/terminal-consent-test.sh   use the existing build
set -u
cd "$(dirname "$0")/.."

. scripts/lib/private-netns.sh
enter_private_netns terminal-consent-test "python3 tmux" "$@"

stage_workdir remotion-terminal-consent
session="remotion-consent-$$"
mkdir -p artifacts
# A tmux server of its own (inside this namespace), not one that may already run outside it.
export REMOTION_TMUX_SOCKET="$work/tmux.sock"
tmx() { tmux -S "$REMOTION_TMUX_SOCKET" "$@"; }
on_exit 'tmx kill-server 2>/dev/null'

# The host starts once the pane's output is recorded (the go file), so the recording has
# everything it wrote.
tmx new-session -d -s "$session" -x 110 -y 45 \
  "while [ ! -e '$work/go' ]; do sleep 0.05; done; env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_SESSION_TYPE REMOTION_NO_UINPUT=1 HOME='$work/home' XDG_CONFIG_HOME='$work/home/.config' \
     '$REMOTION_BIN' host --bind 127.0.0.1 --port 0 --dashboard-port 0 --web-port 0 --pair-at-start --no-discovery \
     --data-dir '$work/data' --ready-file '$work/ready.json' 2>'$work/host.err'; stty -a > '$work/stty.txt'; sleep 30"
tmx pipe-pane -o -t "$session" "cat >> '$work/pane.raw'"
touch "$work/go"
for _ in $(seq 1 300); do [[ -s $work/ready.json ]] && break; sleep 0.05; done
if ! ready_require "$work/ready.json" pairingURL >/dev/null; then
    echo "terminal-consent-test: the host did not become ready:"; cat "$work/host.err" 2>/dev/null
    echo "0 passed, 1 failed"; exit 1
fi
host_pid=$(ready_value "$work/ready.json" pid)

out=$(timeout 60 python3 e2e/terminal/consent_keys.py "$REMOTION_BIN" "$work/data" "$work/ready.json" "$session" \
      artifacts/terminal-consent.txt)
rc=$?
echo "$out" | grep -v ' passed, .* failed$'
passed=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p'); passed=${passed:-0}
failed=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p'); failed=${failed:-1}

# Ctrl-C still stops the host (ISIG stays on) and the view gives the terminal back as it was.
tmx send-keys -t "$session" C-c
for _ in $(seq 1 200); do kill -0 "$host_pid" 2>/dev/null || break; sleep 0.05; done
for _ in $(seq 1 40); do [[ -s $work/stty.txt ]] && break; sleep 0.05; done
if ! kill -0 "$host_pid" 2>/dev/null && grep -qw -- "icanon" "$work/stty.txt" && grep -qw -- "echo" "$work/stty.txt"; then
    echo "PASS Ctrl-C stops the host and the terminal is back in canonical mode with echo"; passed=$((passed + 1))
else
    echo "FAIL Ctrl-C: host still running or the terminal left without icanon/echo: $(cat "$work/stty.txt" 2>/dev/null | head -3)"
    failed=$((failed + 1))
fi
# Bracketed paste: on while the view ran, off after it (the last switch the host wrote is off;
# tmux hands the pane's output to pipe-pane's cat a moment after the host wrote it).
last_switch() { grep -ao $'\e\[?2004[hl]' "$work/pane.raw" 2>/dev/null | tail -1 | tr -d '\033'; }
for _ in $(seq 1 40); do [[ $(last_switch) == "[?2004l" ]] && break; sleep 0.05; done
last_switch=$(last_switch)
if grep -qa $'\e\[?2004h' "$work/pane.raw" 2>/dev/null && [[ $last_switch == "[?2004l" ]]; then
    echo "PASS the view turned bracketed paste on, and off when the host stopped"; passed=$((passed + 1))
else
    echo "FAIL bracketed paste: on while the view ran and off after it? last switch: '${last_switch:-none}'"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[[ $rc -eq 0 && $failed -eq 0 ]]
