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
