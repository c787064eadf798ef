#!/usr/bin/env bash
# Installs remotion for this user (default) or system-wide:
#   bash scripts/install.sh              release build -> ~/.local (bin/remotion, completions,
#                                        a systemd user unit; the udev rule is written to
#                                        share/remotion/ with the command that installs it)
#   sudo bash scripts/install.sh --system    -> /usr/local, the unit in /etc/systemd/user,
#                                        the udev rule in /etc/udev/rules.d (udev reloaded)
#   sudo bash scripts/install.sh --system --gamepad    also installs the opt-in rule that
#                                        grants /dev/uhid (the virtual gamepad): without
#                                        --gamepad it is only copied to share/remotion/
#   sudo bash scripts/install.sh --system --pad-light  also installs the opt-in rule that lets
#                                        every local account set PlayStation pads' light
#                                        (--local-pads); without it only copied, like uhid's
# Options: --prefix DIR (instead of ~/.local or /usr/local), --bin PATH (install this
# binary, with the resource bundle next to it, instead of building), --udev-dir DIR.
# Nothing is enabled or started: the script prints how. Every installed file is listed in
# PREFIX/share/remotion/installed-files, which scripts/uninstall.sh reads.
set -euo pipefail
cd "$(dirname "$0")/.."

system=0 gamepad=0 pad_light=0 prefix="" bin="" udev_dir=""
while (($#)); do
  case $1 in
    --system) system=1 ;;
    --gamepad) gamepad=1 ;;
    --pad-light) pad_light=1 ;;
    --prefix) prefix=$2; shift ;;
    --bin) bin=$2; shift ;;
    --udev-dir) udev_dir=$2; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if ((system)); then
  prefix=${prefix:-/usr/local}
  unit_dir=/etc/systemd/user
  udev_dir=${udev_dir:-/etc/udev/rules.d}
  [[ $(id -u) -eq 0 ]] || { echo "install.sh: --system needs root (sudo)" >&2; exit 1; }
else
  prefix=${prefix:-$HOME/.local}
  unit_dir=${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user
  udev_dir=${udev_dir:-$prefix/share/remotion}
fi

if [[ -z $bin ]]; then
  echo "install.sh: building (swift build -c release --product remotion)"
  swift build -c release --product remotion >/dev/null
  bin="$(swift build -c release --show-bin-path)/remotion"
fi
[[ -x $bin ]] || { echo "install.sh: no executable at $bin" >&2; exit 1; }
bundle="$(dirname "$bin")/Remotion_RemotionApp.resources"
[[ -d $bundle ]] || { echo "install.sh: the dashboard's resources ($bundle) are missing next to $bin" >&2; exit 1; }
version=$("$bin" --version)

manifest="$prefix/share/remotion/installed-files"
mkdir -p "$prefix/share/remotion"
: >"$manifest"
put() { # mode, source, destination
  mkdir -p "$(dirname "$3")"
  install -m "$1" "$2" "$3"
  echo "$3" >>"$manifest"
}

# The binary lives with its resource bundle (Bundle.module looks next to the executable);
# bin/remotion is a link to it.
lib="$prefix/lib/remotion"
put 0755 "$bin" "$lib/remotion"
# Not the page's self-checks (selftest*.js) nor its package.json: test code, never served.
for f in $(cd "$bundle" && find . -type f ! -name 'selftest*.js' ! -path './Page/package.json' | sort); do put 0644 "$bundle/$f" "$lib/Remotion_RemotionApp.resources/${f#./}"; done
mkdir -p "$prefix/bin"
ln -sf "$lib/remotion" "$prefix/bin/remotion"
echo "$prefix/bin/remotion" >>"$manifest"

# Shell completions (swift-argument-parser generates them).
completions=$(mktemp -d)
trap 'rm -rf "$completions"' EXIT
"$bin" --generate-completion-script bash >"$completions/remotion"
"$bin" --generate-completion-script zsh >"$completions/_remotion"
"$bin" --generate-completion-script fish >"$completions/remotion.fish"
put 0644 "$completions/remotion" "$prefix/share/bash-completion/completions/remotion"
put 0644 "$completions/_remotion" "$prefix/share/zsh/site-functions/_remotion"
put 0644 "$completions/remotion.fish" "$prefix/share/fish/vendor_completions.d/remotion.fish"

# The systemd user unit for `remotion host` (not enabled) and the udev rule that gives the
# active local session (logind's uaccess) write access to /dev/uinput: packaging/ holds the
# one copy of each, which scripts/package.sh puts in the .deb too (the unit's hardening:
# docs/SECURITY.md §11.5).
sed "s|@BINDIR@|$prefix/bin|g" packaging/remotion-host.service >"$completions/remotion-host.service"
put 0644 "$completions/remotion-host.service" "$unit_dir/remotion-host.service"
cp packaging/60-remotion-uinput.rules "$completions/60-remotion-uinput.rules"
put 0644 "$completions/60-remotion-uinput.rules" "$udev_dir/60-remotion-uinput.rules"
# The uhid grant is an opt-in (any HID device, every kernel HID parser: docs/GAMEPAD.md):
# always copied to share/remotion, installed into the udev directory only with --gamepad.
uhid_rule="$prefix/share/remotion/60-remotion-uhid.rules"
put 0644 packaging/60-remotion-uhid.rules "$uhid_rule"
if ((gamepad)) && [[ $udev_dir != "$prefix/share/remotion" ]]; then
  put 0644 packaging/60-remotion-uhid.rules "$udev_dir/60-remotion-uhid.rules"
fi
# So is the pads' light (a mode every local account gets: docs/LOCAL-PADS.md "Light"): copied,
# installed into the udev directory only with --pad-light.
light_rule="$prefix/share/remotion/60-remotion-pad-light.rules"
put 0644 packaging/60-remotion-pad-light.rules "$light_rule"
if ((pad_light)) && [[ $udev_dir != "$prefix/share/remotion" ]]; then
  put 0644 packaging/60-remotion-pad-light.rules "$udev_dir/60-remotion-pad-light.rules"
fi

# The app menu entry and its icon (the launcher runs `remotion dashboard --start`).
sed "s|@BINDIR@|$prefix/bin|g" packaging/remotion.desktop >"$completions/remotion.desktop"
put 0644 "$completions/remotion.desktop" "$prefix/share/applications/remotion.desktop"
put 0644 packaging/remotion.svg "$prefix/share/icons/hicolor/scalable/apps/remotion.svg"

echo "installed remotion $version in $prefix (files listed in $manifest)"
echo "  run:      $prefix/bin/remotion host   (make sure $prefix/bin is on your PATH)"
echo "  service:  systemctl --user daemon-reload && systemctl --user enable --now remotion-host"
if ((system)) && [[ $udev_dir == /etc/udev/rules.d ]]; then
  modprobe uinput 2>/dev/null || true
  command -v udevadm >/dev/null && udevadm control --reload && udevadm trigger --subsystem-match=misc --sysname-match=uinput || true
  echo "  uinput:   rule installed: the user at the machine's active desktop session may use /dev/uinput (no group to join)"
else
  echo "  uinput:   sudo install -m 0644 $udev_dir/60-remotion-uinput.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=misc --sysname-match=uinput"
fi
if ((gamepad)) && ((system)) && [[ $udev_dir == /etc/udev/rules.d ]]; then
  modprobe uhid 2>/dev/null || true
  command -v udevadm >/dev/null && udevadm control --reload && udevadm trigger --sysname-match=uhid || true
  echo "  gamepad:  uhid rule installed: the user at the active desktop session may create HID devices (/dev/uhid)"
else
  echo "  gamepad:  opt-in, for --gamepad only: sudo install -m644 $uhid_rule /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --sysname-match=uhid"
fi
if ((pad_light)) && ((system)) && [[ $udev_dir == /etc/udev/rules.d ]]; then
  command -v udevadm >/dev/null && udevadm control --reload && udevadm trigger --subsystem-match=leds || true
  echo "  pad light: rule installed: every local account may set PlayStation pads' light colour"
else
  echo "  pad light: opt-in, lets every local account set PlayStation pads' light: sudo install -m644 $light_rule /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=leds"
fi
echo "  zsh:      add $prefix/share/zsh/site-functions to fpath for the completions"
echo "  remove:   bash scripts/uninstall.sh$( ((system)) && echo " --system")$( [[ -n ${prefix:-} ]] && echo " --prefix $prefix")"
