# Waiting for a host's readiness signal (docs/ARCHITECTURE.md, "Readiness"): the JSON object
# that `remotion host --ready-file FILE` writes atomically once every listener is up. Source
# this file; never read a port from a human-readable log line.
#
#   wait_ready FILE PID [SECONDS]   waits (bounded, 30 s by default, times a QEMU guest's pace)
#                                   until FILE exists; fails with
#                                   one line on stderr if the host exited first or never wrote it
#   ready_value FILE KEY            one field ('' when the part is off: null)
#   ready_require FILE KEY...       prints the first key's value; fails naming every key that is null

wait_ready() {
  local file=$1 pid=$2 limit=${3:-30} i n
  declare -F pace_now >/dev/null && pace_now   # in a guest: the pace as it stands
  # In a QEMU guest, the bound stretches by the guest's pace (scripts/lib/guest-helpers.sh).
  n=$(awk -v l="$limit" -v p="${guest_pace:-1}" 'BEGIN { printf "%d", l * p * 20 }')
  for ((i = 0; i < n; i++)); do
    [[ -s $file ]] && return 0
    kill -0 "$pid" 2>/dev/null || { echo "the host (pid $pid) exited before it was ready (no $file)" >&2; return 1; }
    # In a guest, a sleep that starts no process (scripts/lib/guest-helpers.sh).
    if declare -F nap >/dev/null; then nap 0.05; else sleep 0.05; fi
  done
  echo "the host (pid $pid) wrote no ready file ($file) within $limit s" >&2
  return 1
}

ready_value() {
  # The host writes one flat object on one line (HostReady): a string without escapes, an
  # integer or null is read here without a process (Python's start costs most of a second in a
  # QEMU guest); anything else goes to Python's JSON reader.
  local line re="[{,]\"$2\":(\"([^\"\\\\]*)\"|(-?[0-9]+)|null)[,}]"
  IFS= read -r line <"$1" 2>/dev/null
  if [[ $line =~ $re ]]; then printf '%s\n' "${BASH_REMATCH[2]}${BASH_REMATCH[3]}"; return 0; fi
  python3 -c 'import json, sys; v = json.load(open(sys.argv[1])).get(sys.argv[2]); print("" if v is None else v)' "$1" "$2"
}

ready_require() {
  local file=$1 missing=() key first=""; shift
  for key in "$@"; do
    local v; v=$(ready_value "$file" "$key")
    [[ -z $v ]] && missing+=("$key")
    [[ -z $first ]] && first=$v
  done
  if ((${#missing[@]})); then
    echo "the host's ready file has no ${missing[*]}: $(cat "$file")" >&2
    return 1
  fi
  printf '%s\n' "$first"
}
