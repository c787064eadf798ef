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
started=$(date +%s.%N)
. scripts/lib/kernel-guest.sh
kguest_init kguest
for tool in libinput /lib/systemd/systemd-udevd; do
  command -v "$tool" >/dev/null || fail_now "$tool is missing: run scripts/setup.sh"
done

# 1. Debian's kernel, resolved through linux-image-amd64, extracted once into the cache.
kguest_kernel
# 2. A small initramfs: static busybox, the modules for 9p over virtio and for input (their
#    dependencies from modules.dep), and an /init that mounts the shares and runs the test.
kguest_initramfs scripts/lib/kernel-guest-inside.sh virtio_pci 9pnet_virtio 9p evdev uinput

# 3. What the guest runs with (sourced by kernel-guest-inside.sh).
cat >"$results/guest.env" <<ENV
REMOTION_BIN='/run/bin/$(basename "$bin")'
HOST_TIMEOUT=1
ENV

# 4. Boot (150 s at most).
kguest_boot 300

# 5. The checks, on what the guest wrote (their last line: N passed, N failed).
kguest_check kernel-guest scripts/lib/kernel_guest_check.py; exit $?
