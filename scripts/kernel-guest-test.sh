#!/usr/bin/env bash
# The uinput injector on a real Linux kernel (docs/INJECTION.md, "Tests on a real kernel").
# This machine's kernel has no uinput, so Debian's own kernel (the version that
# linux-image-amd64 depends on today, resolved at run time, `apt-get download` +
# `dpkg-deb -x` into a cache; nothing goes into /boot) boots in QEMU with software
# emulation (-accel tcg), no network device, this machine's root shared read-only over 9p
# and a writable 9p share for the results. Inside the guest (scripts/lib/kernel-guest-inside.sh):
# systemd-udevd, `libinput debug-events`, `remotion host --inject uinput` (REMOTION_ECHO_INJECTED=1
# says what it injected) and `remotion client --insecure` on loopback. Checked here
# (scripts/lib/kernel_guest_check.py): pointer and seed modes give absolute events at the mapper's
# screen fractions (within 0.5 %), FPS mode relative events whose raw values sum to what the
# mapper emitted, a click, a key and a high-resolution wheel step exactly once, a killed
# controller's held button released within the host's timeout, both devices removed when
# the host stops.
# A guest that does not boot is a failure, never a skip.
#   REMOTION_SKIP_BUILD=1  use the existing debug build (CI builds it first)
#   REMOTION_BIN=PATH      the remotion binary to test
#   REMOTION_KERNEL_CACHE  where the extracted kernel is kept (default ~/.cache/remotion-kernel)
#   GUEST_CPUS=N           vCPUs (default 1: with TCG on a busy 2-core machine 2 were slower)
#   KEEP_WORK=1            keep the work folder (console log, libinput log, host output)
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
started=$(date +%s.%N)
passed=0; failed=0
fail_now() { echo "FAIL $*"; echo "0 passed, 1 failed"; exit 1; }

if [[ -z ${REMOTION_BIN:-} && -z ${REMOTION_SKIP_BUILD:-} ]]; then
  swift build --product remotion >/dev/null || fail_now "swift build --product remotion"
fi
# (The last line: SwiftPM says first when it waits for another build's lock.)
bin="${REMOTION_BIN:-$(swift build --show-bin-path 2>/dev/null | tail -1)/remotion}"
[[ -x $bin ]] || fail_now "no remotion binary at $bin (build it, or set REMOTION_BIN)"
bin=$(readlink -f "$bin")
for tool in qemu-system-x86_64 /bin/busybox libinput /lib/systemd/systemd-udevd /usr/bin/python3 apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || fail_now "$tool is missing: run scripts/setup.sh"
done
# (Not `busybox --list | grep -q`: with pipefail, grep's early exit would fail busybox's write.)
grep -qx depmod <(/bin/busybox --list) || fail_now "/bin/busybox has no depmod (busybox-static is needed: scripts/setup.sh)"

work=$(mktemp -d "${TMPDIR:-/tmp}/remotion-kguest.$$.XXXXXX")
qemu_pid=""
cleanup() {
  [[ -n $qemu_pid ]] && kill "$qemu_pid" 2>/dev/null && wait "$qemu_pid" 2>/dev/null
  if [[ -n ${KEEP_WORK:-} ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# The modules the guest loads (modprobe brings in their dependencies, listed after them).
modules=(virtio_pci 9pnet_virtio 9p evdev uinput)
dependencies=(virtio_pci_modern_dev virtio_pci_legacy_dev virtio_ring virtio 9pnet netfs fscache)

# 1. Debian's kernel, resolved through linux-image-amd64, extracted once into the cache.
package=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
[[ -n $package ]] || fail_now "cannot resolve linux-image-amd64's kernel package (apt-get update?)"
cache_root=${REMOTION_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/remotion-kernel}
kdir="$cache_root/$package"
if [[ ! -f $kdir/ready ]]; then
  mkdir -p "$cache_root"
  tmp=$(mktemp -d "$cache_root/.fetch.$$.XXXXXX")
  echo "kernel: apt-get download $package"
  (cd "$tmp" && apt-get -qq -o APT::Sandbox::User=root download "$package") >/dev/null 2>&1 \
    || { rm -rf "$tmp"; fail_now "apt-get download $package failed"; }
  dpkg-deb -x "$tmp"/*.deb "$tmp/root" || { rm -rf "$tmp"; fail_now "dpkg-deb -x $package failed"; }
  rm -f "$tmp"/*.deb
  # The uncompressed kernel boots through its PVH note and saves the guest ~3 s of xz.
  /usr/bin/python3 - "$tmp"/root/boot/vmlinuz-* "$tmp/vmlinux" <<'PY' || { rm -rf "$tmp"; fail_now "cannot unpack the kernel image"; }
import lzma, sys
data = open(sys.argv[1], "rb").read()
at = data.find(b"\xfd7zXZ\x00")
if at < 0: sys.exit("no xz payload in " + sys.argv[1])
out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[at:])
if out[:4] != b"\x7fELF": sys.exit("the payload is not an ELF kernel")
open(sys.argv[2], "wb").write(out)
PY
  # Only what the guest needs stays in the cache (~70 MB instead of ~460 MB).
  keep=$(printf -- '-o -name %s.ko ' "${modules[@]}" "${dependencies[@]}")
  find "$tmp/root/lib/modules" -name '*.ko' ! \( ${keep#-o } \) -delete
  rm -rf "$tmp/root/usr" "$tmp"/root/boot/vmlinuz-*
  touch "$tmp/ready"
  if ! mv -T "$tmp" "$kdir" 2>/dev/null; then rm -rf "$tmp"; fi  # another run got there first
fi
[[ -f $kdir/ready ]] || fail_now "the kernel cache $kdir is incomplete"
version=$(basename "$(ls -d "$kdir"/root/lib/modules/*/ | head -1)")

# 2. A small initramfs: static busybox, the modules for 9p over virtio and for input, and an
#    /init that mounts the machine's root and the results share and switches into the test.
results="$work/results"; mkdir -p "$results" "$work/initramfs/bin"
ir="$work/initramfs"
cp /bin/busybox "$ir/bin/busybox"
for m in "${modules[@]}" "${dependencies[@]}"; do
  f=$(find "$kdir/root/lib/modules/$version/kernel" -name "$m.ko" | head -1)
  [[ -n $f ]] || fail_now "module $m.ko is not in $package"
  mkdir -p "$ir/$(dirname "${f#"$kdir/root/"}")"
  cp "$f" "$ir/${f#"$kdir/root/"}"
done
/bin/busybox depmod -b "$ir" "$version" || fail_now "busybox depmod failed"
cat >"$ir/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /newroot
mount -t proc proc /proc && mount -t sysfs sysfs /sys && mount -t devtmpfs devtmpfs /dev
for m in ${modules[*]}; do modprobe \$m || echo "init: modprobe \$m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,ro hostroot /newroot || { echo "init: no root"; poweroff -f; }
for d in tmp run var/tmp; do mount -t tmpfs tmpfs /newroot/\$d; done
mkdir -p /newroot/run/results /newroot/run/repo /newroot/run/bin
mount -t 9p -o trans=virtio,version=9p2000.L results /newroot/run/results || { echo "init: no results share"; poweroff -f; }
# The checkout and the binary come as shares of their own: under /tmp (a clone there) the
# guest's own tmpfs would hide them.
mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,ro repo /newroot/run/repo || { echo "init: no repo share"; poweroff -f; }
mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,ro bin /newroot/run/bin || { echo "init: no bin share"; poweroff -f; }
echo "$version" >/newroot/run/results/booted
for d in proc sys dev; do mount --move /\$d /newroot/\$d; done
exec switch_root /newroot /bin/busybox sh -c '/bin/bash /run/repo/scripts/lib/kernel-guest-inside.sh >/run/results/inside.log 2>&1; echo \$? >/run/results/inside.rc; sync; /bin/busybox poweroff -f'
INIT
chmod 0755 "$ir/init"
(cd "$ir" && /usr/bin/python3 - "$work/initramfs.cpio" <<'PY') || fail_now "cannot write the initramfs"
import os, stat, sys
out = open(sys.argv[1], "wb")
def entry(name, mode, data=b"", ino=[1]):
    ino[0] += 1
    fields = [ino[0], mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0]
    out.write(b"070701" + b"".join(b"%08X" % f for f in fields) + name.encode() + b"\0")
    out.write(b"\0" * (-(110 + len(name) + 1) % 4) + data + b"\0" * (-len(data) % 4))
for root, dirs, files in os.walk("."):
    for d in sorted(dirs): entry(os.path.join(root, d)[2:], stat.S_IFDIR | 0o755)
    for f in sorted(files):
        p = os.path.join(root, f)
        entry(p[2:], stat.S_IFREG | (os.stat(p).st_mode & 0o777), open(p, "rb").read())
entry("TRAILER!!!", 0)
PY

# 3. What the guest runs with (sourced by kernel-guest-inside.sh).
cat >"$results/guest.env" <<ENV
REMOTION_BIN='/run/bin/$(basename "$bin")'
HOST_TIMEOUT=1
ENV

# 4. Boot. TCG: /dev/kvm here is a PVM hypervisor that hangs stock kernels
#    (../shared/notes/kernel-guest-lab.md); a hung guest ends at the deadline.
echo "kernel: $package ($version), booting with $(basename "$bin") from $(dirname "$bin")"
boot_started=$(date +%s.%N)
timeout -k 5 150 qemu-system-x86_64 -accel tcg -machine q35 -m 1024 -smp ${GUEST_CPUS:-1} -nographic -nodefaults -nic none \
  -no-reboot -serial mon:stdio -kernel "$kdir/vmlinux" -initrd "$work/initramfs.cpio" \
  -append "console=ttyS0 quiet panic=-1" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$results",mount_tag=results,security_model=none,multidevs=remap \
  -virtfs local,path="$repo",mount_tag=repo,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$(dirname "$bin")",mount_tag=bin,security_model=none,readonly=on,multidevs=remap \
  </dev/null >"$work/console.log" 2>&1 &
qemu_pid=$!
wait "$qemu_pid"; qemu_rc=$?; qemu_pid=""
guest_seconds=$(/usr/bin/python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.1f}')" "$boot_started")
if [[ ! -f $results/booted ]]; then
  echo "--- guest console (last 30 lines)"; tail -30 "$work/console.log"
  KEEP_WORK=1
  fail_now "the guest did not boot (qemu exit $qemu_rc after ${guest_seconds} s; console in $work/console.log)"
fi
echo "guest: booted $(cat "$results/booted"), powered off after ${guest_seconds} s (qemu exit $qemu_rc)"
if [[ ! -f $results/inside.rc ]]; then
  echo "--- guest console (last 30 lines)"; tail -30 "$work/console.log"
  echo "--- inside.log (last 30 lines)"; tail -30 "$results/inside.log" 2>/dev/null
  KEEP_WORK=1
  fail_now "the test inside the guest did not finish (qemu exit $qemu_rc after ${guest_seconds} s)"
fi

# 5. The checks, on what the guest wrote (their last line: N passed, N failed).
total=$(/usr/bin/python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.1f}')" "$started")
echo "kernel-guest: ${total} s in all (guest ${guest_seconds} s)"
/usr/bin/python3 "$repo/scripts/lib/kernel_guest_check.py" "$results"; rc=$?
if [[ $rc -ne 0 ]]; then KEEP_WORK=1; fi
exit $rc
