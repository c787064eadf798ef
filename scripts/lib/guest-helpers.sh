# The prelude and helpers of the scripts that run INSIDE a QEMU guest (scripts/lib/kernel-guest.sh
# boots it), their first line after `set`: results go to $out (/run/results, the writable share);
# it reads the guest's settings ($out/guest.env), the readiness helpers (ready.sh), times the
# guest's pace and records the kernel. `fact_modules M...` records which of those modules are loaded.
out=/run/results
. "$out/guest.env"
. "$(dirname "${BASH_SOURCE[0]}")/ready.sh"
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home LANG=C.UTF-8
mkdir -p "$HOME"
now() { cut -d' ' -f1 /proc/uptime; }
say() { echo "[$(now)] $*"; }
fact() { echo "$1=$2" >>"$out/facts"; }
fact_modules() { local m; for m in "$@"; do [[ -d /sys/module/$m ]] && fact "module.$m" loaded; done; return 0; }
fact kernel "$(uname -r)"
# The guest's pace: how many times slower its emulated CPU runs now than on an idle machine
# (1 there, at most 10), from a fixed loop timed as the script starts (PACE_LOOP_IDLE: the loop's
# seconds measured in idle guests). A busy computer slows a TCG guest 2-10 times; every bounded
# wait below stretches by the pace, and the host's hang guard reads it from $out/pace
# (scripts/lib/kernel-guest.sh). PACE=N sets the start's. The pace runs on: outside, the hang guard
# measures how long QEMU's emulated CPU waits for a core and rewrites $out/pace (never below the
# start's), which wait_for reads each time it starts and when its bound passes.
PACE_LOOP_IDLE=0.40
pace_loop() { # the loop's seconds
  local a b; a=$(now)
  awk 'BEGIN { for (i = 0; i < 200000; i++) s += i * i }'
  b=$(now)
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f\n", b - a }'
}
pace_loop_seconds=$(pace_loop)
guest_pace=${PACE:-$(awk -v t="$pace_loop_seconds" -v r="$PACE_LOOP_IDLE" 'BEGIN { p = t / r; if (p < 1) p = 1; if (p > 10) p = 10; printf "%.2f\n", p }')}
echo "$guest_pace" >"$out/pace.start"; echo "$guest_pace" >"$out/pace"
say "pace $guest_pace (a fixed loop took $pace_loop_seconds s, $PACE_LOOP_IDLE s in an idle guest)"
# nap SECONDS: a sleep that starts no process (read's timeout on a FIFO nobody writes). On one
# emulated CPU a process costs some 15-20 ms, so a poll that started `sleep`, `cut` and `awk`
# every 50 ms took most of the CPU from what it waited for.
nap() {
  if [[ -z ${nap_fd:-} ]]; then
    mkfifo "/tmp/nap.$BASHPID" && exec {nap_fd}<>"/tmp/nap.$BASHPID" && rm -f "/tmp/nap.$BASHPID" || { sleep "$1"; return; }
  fi
  read -r -t "$1" -u "$nap_fd" _ || true
}
# uptime_cs: the uptime in hundredths of a second, into $uptime_cs (no process either).
uptime_cs() { local up; read -r up _ </proc/uptime; uptime_cs=$((10#${up/./})); }
# pace_now: the pace as it stands (into guest_pace; no process).
pace_now() { local p; IFS= read -r p <"$out/pace" 2>/dev/null && [[ $p =~ ^[0-9]+\.[0-9]+$ ]] && guest_pace=$p; return 0; }
# wait_for SECONDS WHAT COMMAND...: polls the command every 50 ms, for SECONDS times the pace
# (the pace as it stands when the bound passes: a busier computer extends it); records a timeout.
# paced_deadline: wait_for's deadline, SECONDS times the pace after it began (its locals).
paced_deadline() { deadline=$((began + $(awk -v l="$seconds" -v p="$guest_pace" 'BEGIN { printf "%d", l * p * 100 }'))); }
wait_for() {
  local seconds=$1 what=$2 began deadline used; shift 2
  pace_now; used=$guest_pace
  uptime_cs; began=$uptime_cs; paced_deadline
  until "$@"; do
    uptime_cs
    if ((uptime_cs > deadline)); then
      pace_now
      if [[ $guest_pace != "$used" ]]; then
        used=$guest_pace; local before=$deadline; paced_deadline
        ((deadline > before)) && continue
      fi
      say "timed out waiting for: $what"; fact "timeout" "$what"; return 1
    fi
    nap 0.05
  done
}
lines() { grep -c -- "$2" "$1" 2>/dev/null; }
at_least() { [[ $(lines "$1" "$2") -ge $3 ]]; }
