# Helpers for the scripts that run INSIDE a QEMU guest (scripts/lib/kernel-guest.sh boots it):
# results go to $out (/run/results, the writable share). Source after setting `out`.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home LANG=C.UTF-8
mkdir -p "$HOME"
now() { cut -d' ' -f1 /proc/uptime; }
say() { echo "[$(now)] $*"; }
fact() { echo "$1=$2" >>"$out/facts"; }
# wait_for SECONDS WHAT COMMAND...: polls the command every 50 ms; records a timeout.
wait_for() {
  local limit=$1 what=$2; shift 2
  local deadline; deadline=$(awk -v n="$(now)" -v l="$limit" 'BEGIN { print n + l }')
  until "$@"; do
    if awk -v n="$(now)" -v d="$deadline" 'BEGIN { exit !(n > d) }'; then
      say "timed out waiting for: $what"; fact "timeout" "$what"; return 1
    fi
    sleep 0.05
  done
}
lines() { grep -c -- "$2" "$1" 2>/dev/null; }
at_least() { [[ $(lines "$1" "$2") -ge $3 ]]; }
