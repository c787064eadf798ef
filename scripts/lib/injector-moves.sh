# The log injector's pointer moves, for the stages that watch a mapping change (the profiles
# stages): the host's --inject log writes one JSON line per injected event to INJECTOR_LOG.
#   moves FROM            the kinds of the moves (move_to, move_by) after line FROM, one a line
#   lines                 how many lines the log has now (a FROM for the next step)
#   until_moves FROM KIND N    until N moves of KIND after line FROM (bounded, 20 s)
#   settled FROM KIND OTHER N  at least N moves of KIND after FROM, none of OTHER after the first
moves() {
  tail -n +"$(($1 + 1))" "$INJECTOR_LOG" | python3 -c '
import json, sys
for line in sys.stdin:
    line = line.strip()
    if line.startswith("{"):
        kind = json.loads(line).get("kind")
        if kind in ("move_to", "move_by"): print(kind)'
}
lines() { wc -l <"$INJECTOR_LOG"; }
until_moves() {
  local end=$((SECONDS + 20))
  while ((SECONDS < end)); do
    [[ $(moves "$1" | grep -c "^$2\$") -ge $3 ]] && return 0
    sleep 0.05
  done
  [[ $(moves "$1" | grep -c "^$2\$") -ge $3 ]]
}
settled() {
  until_moves "$1" "$2" "$4" || { echo "     no $4 $2 after line $1: $(moves "$1" | sort | uniq -c | xargs)"; return 1; }
  local after; after=$(moves "$1" | sed -n "/^$2\$/,\$p" | grep -c "^$3\$")
  [[ $after -eq 0 ]] || { echo "     $after $3 after the first $2"; return 1; }
}
