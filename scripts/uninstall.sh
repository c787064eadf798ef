#!/usr/bin/env bash
# Removes what scripts/install.sh installed: every file listed in
# PREFIX/share/remotion/installed-files (and the directories that become empty), after
# disabling the systemd user unit if it is enabled. Keys and config stay
# (~/.local/share/remotion, ~/.config/remotion).
#   bash scripts/uninstall.sh [--system] [--prefix DIR]
set -euo pipefail
system=0 prefix=""
while (($#)); do
  case $1 in
    --system) system=1 ;;
    --prefix) prefix=$2; shift ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if ((system)); then prefix=${prefix:-/usr/local}; else prefix=${prefix:-$HOME/.local}; fi
manifest="$prefix/share/remotion/installed-files"
[[ -f $manifest ]] || { echo "uninstall.sh: nothing installed in $prefix (no $manifest)" >&2; exit 1; }

if ! ((system)) && command -v systemctl >/dev/null && systemctl --user is-enabled remotion-host.service >/dev/null 2>&1; then
  systemctl --user disable --now remotion-host.service || true
fi
removed=0 rule_removed=0
while IFS= read -r file; do
  [[ -n $file ]] || continue
  if [[ -e $file || -L $file ]]; then rm -f "$file"; removed=$((removed + 1)); fi
  if [[ $file == /etc/udev/rules.d/* ]]; then rule_removed=1; fi
  dir=$(dirname "$file")
  while [[ $dir == "$prefix"* || $dir == */systemd/user || $dir == */rules.d ]] && rmdir "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
done <"$manifest"
rm -f "$manifest"
rmdir "$prefix/share/remotion" 2>/dev/null || true
echo "removed $removed files of remotion from $prefix (keys and config kept)"
if ((rule_removed)) && command -v udevadm >/dev/null; then
  # The uaccess tag goes with the rule; an ACL already on /dev/uinput stays until the node
  # is made again (reboot, or `rmmod uinput` when it is not a static node).
  udevadm control --reload && udevadm trigger --subsystem-match=misc --sysname-match=uinput || true
  udevadm trigger --sysname-match=uhid || true
  echo "  uinput:   udev rules removed (uinput, and uhid if --gamepad installed it); the session's access ends with the next reboot"
fi
