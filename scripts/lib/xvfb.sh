# A private Xvfb on a display number the X server picks itself (-displayfd): two suites
# started at once never share a display, and the number arrives once the server listens.
# Source this file, then:
#   start_xvfb DIR     starts Xvfb (1920x1080x24, no TCP, no reset when the last client
#                      leaves); sets DISPLAY and xvfb_pid; fails with one line after 10 s
start_xvfb() {
  local dir=$1 i
  rm -f "$dir/xvfb.display"
  Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp -noreset 3>"$dir/xvfb.display" >"$dir/xvfb.log" 2>&1 &
  xvfb_pid=$!
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
