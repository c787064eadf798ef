# A private Xvfb on a display number the X server picks itself (-displayfd): two suites
# started at once never share a display, and the number arrives once the server listens.
# Source this file, then:
#   start_xvfb DIR     starts Xvfb (1920x1080x24, no TCP, no reset when the last client
#                      leaves); sets DISPLAY and xvfb_pid and adds it to `pids` (stopped at
#                      exit by scripts/lib/stage.sh); fails with one line after 10 s
start_xvfb() {
  local dir=$1 i
  rm -f "$dir/xvfb.display"
  Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp -noreset 3>"$dir/xvfb.display" >"$dir/xvfb.log" 2>&1 &
  xvfb_pid=$!
  pids+=("$xvfb_pid")
  for ((i = 0; i < 200; i++)); do
    if [[ -s $dir/xvfb.display ]] && grep -q $'\n' "$dir/xvfb.display"; then
      DISPLAY=":$(head -1 "$dir/xvfb.display")"; export DISPLAY
      return 0
    fi
    kill -0 "$xvfb_pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "Xvfb did not start: $(tail -3 "$dir/xvfb.log" | tr '\n' ' ')" >&2
  return 1
}

# start_xi2_witness LOG   X's own event stream (xinput test-xi2 --root) into LOG, line-buffered
#                         (a block buffer would hold the last events back), and listening before
#                         anything is injected: probe motions until one shows up (bounded, 5 s).
#                         Sets xi2_pid; fails with one line if no event arrives. Moves the pointer.
start_xi2_witness() {
  local log=$1 i
  stdbuf -oL xinput test-xi2 --root >"$log" 2>&1 &
  xi2_pid=$!
  for ((i = 0; i < 100; i++)); do
    xdotool mousemove $((i % 2)) 0 >/dev/null 2>&1
    grep -q "EVENT type" "$log" && return 0
    sleep 0.05
  done
  echo "xinput test-xi2 saw no event in 5 s" >&2
  return 1
}

# start_key_witness LOG   the keyboard witness: a small xev window (named remotion-keys) holding
#                         the input focus, its key events into LOG, line-buffered. (Not xev -root:
#                         the X server delivers an event on a window as XI2 or as core, not both,
#                         and test-xi2 has the root.) Probes with Shift_L until a KeyPress shows up
#                         (bounded, 5 s each for the window and the focus). Sets key_pid; fails with
#                         one line on stderr.
start_key_witness() {
  local log=$1 win="" i
  stdbuf -oL xev -geometry 16x16+1900+1060 -name remotion-keys -event keyboard >"$log" 2>&1 &
  key_pid=$!
  for ((i = 0; i < 100; i++)); do
    win=$(xdotool search --name '^remotion-keys$' 2>/dev/null | head -1)
    [[ -n $win ]] && break
    sleep 0.05
  done
  [[ -n $win ]] || { echo "the keyboard witness window (xev) did not appear within 5 s" >&2; return 1; }
  for ((i = 0; i < 100; i++)); do
    xdotool windowfocus "$win" >/dev/null 2>&1
    xdotool key Shift_L >/dev/null 2>&1
    grep -q "KeyPress" "$log" 2>/dev/null && return 0
    sleep 0.05
  done
  echo "the keyboard witness (xev) saw no key event within 5 s: $(head -3 "$log" | tr '\n' ' ')" >&2
  return 1
}
