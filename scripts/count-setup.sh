#!/usr/bin/env bash
# Counts the Debian packages each set-up (scripts/setup.sh) installs on a fresh machine of
# this kind, the way dpkg's log would: apt-get's simulation (`install -s
# --no-install-recommends`, as setup.sh installs) against a dpkg status that holds only the
# packages the fresh image has. That list is a file (one "apt<TAB>name[:arch]<TAB>version"
# line per package, e.g. the workplace's installed-swift.txt); the stanzas come from this
# machine's /var/lib/dpkg/status. Nothing is installed; needs current apt lists.
#   bash scripts/count-setup.sh FRESH-LIST [demo|test|"pkg pkg …"]...   (default: demo test)
# VERBOSE=1 lists the packages.
set -euo pipefail
cd "$(dirname "$0")/.."
fresh=${1:?usage: count-setup.sh FRESH-LIST [demo|test]...}; shift
[[ -r $fresh ]] || { echo "count-setup.sh: cannot read $fresh" >&2; exit 1; }
status=$(mktemp)
trap 'rm -f "$status"' EXIT
/usr/bin/python3 - "$fresh" "$status" <<'PY'
import sys
names = {l.split("\t")[1].split(":")[0] for l in open(sys.argv[1]) if l.startswith("apt\t")}
out, kept = open(sys.argv[2], "w"), 0
for stanza in open("/var/lib/dpkg/status").read().split("\n\n"):
    fields = dict(l.split(": ", 1) for l in stanza.splitlines() if ": " in l and not l.startswith(" "))
    if fields.get("Package") in names and fields.get("Status", "").endswith(" installed"):
        out.write(stanza.strip() + "\n\n"); kept += 1
print(f"count-setup.sh: fresh image: {kept} of {len(names)} packages found in /var/lib/dpkg/status", file=sys.stderr)
PY
(($#)) || set -- demo test
for s in "$@"; do
  {
    case $s in
      demo|test) mapfile -t pkgs < <(bash scripts/setup.sh --list "$s") ;;
      *) read -ra pkgs <<<"$s" ;;   # a quoted list of package names
    esac
    installs=$(apt-get install -s --no-install-recommends -o Dir::State::status="$status" "${pkgs[@]}" | grep '^Inst [^ ]* (' || true)
    echo "$s: $(grep -c . <<<"$installs") packages installed (${#pkgs[@]} named)"
    if [[ -n ${VERBOSE:-} ]]; then awk '{print "  " $2}' <<<"$installs"; fi
  }
done
