# The machinery of the QEMU guest stages (docs/INJECTION.md, "Tests on a real kernel";
# docs/GAMEPAD.md): Debian's own kernel, fetched once into a cache, booted under TCG with
# no network device, this machine's root shared read-only over 9p, the checkout and the
# binary as shares of their own, and a writable share for the results. Source it from a
# stage script (after `cd` to the checkout) and call, in order:
#   kguest_init NAME                 preflight, the work folder, the cleanup trap; sets repo, bin, work, results
#   kguest_kernel                    resolves and caches the kernel; sets package, kdir, version
#   kguest_initramfs INSIDE MODULE…  an initramfs that loads MODULE… (their dependencies from
#                                    modules.dep) and runs the script INSIDE (a path in the checkout)
#   kguest_boot SECONDS              boots; fails the stage when the guest does not boot or the
#                                    script inside does not finish; sets guest_seconds
#     (or kguest_start SECONDS [QEMU ARG…], then kguest_wait: the guest runs in the background
#     while the stage does its part outside; ARGs give it a network device instead of none,
#     which only user-mode networking with restrict=on may be: kguest_start refuses others)
#   kguest_check LABEL CHECKER       says how long it all took (from $started), runs the checks
#                                    (a Python script in the checkout) on the results; its status
# Environment: REMOTION_SKIP_BUILD, REMOTION_BIN, REMOTION_KERNEL_CACHE, GUEST_CPUS, KEEP_WORK,
# REMOTION_GUEST_KERNEL (the kernel's meta package: linux-image-amd64, Debian 12's 6.1, unless
# set; linux-image-6.12-amd64 is 6.12 from bookworm-security).

# Every module a stage loads, and so every module the cache keeps (with their dependencies).
kguest_cache_modules=(virtio_pci 9pnet_virtio 9p evdev uinput uhid hid_playstation hid_nintendo hid_sony virtio_net)
# The cache's format: a cache written with another list is fetched again.
kguest_cache_stamp="modules: ${kguest_cache_modules[*]}"

fail_now() { echo "FAIL $*"; echo "0 passed, 1 failed"; exit 1; }

kguest_init() {
  local name=$1
  repo=$(pwd)
  if [[ -z ${REMOTION_BIN:-} && -z ${REMOTION_SKIP_BUILD:-} ]]; then
    swift build --product remotion >/dev/null || fail_now "swift build --product remotion"
  fi
  # (The last line: SwiftPM says first when it waits for another build's lock.)
  bin="${REMOTION_BIN:-$(swift build --show-bin-path 2>/dev/null | tail -1)/remotion}"
  [[ -x $bin ]] || fail_now "no remotion binary at $bin (build it, or set REMOTION_BIN)"
  bin=$(readlink -f "$bin")
  local tool
  for tool in qemu-system-x86_64 /bin/busybox /usr/bin/python3 apt-get dpkg-deb; do
    command -v "$tool" >/dev/null || fail_now "$tool is missing: run scripts/setup.sh"
  done
  # (Not `busybox --list | grep -q`: with pipefail, grep's early exit would fail busybox's write.)
  grep -qx depmod <(/bin/busybox --list) || fail_now "/bin/busybox has no depmod (busybox-static is needed: scripts/setup.sh)"
  work=$(mktemp -d "${TMPDIR:-/tmp}/remotion-$name.$$.XXXXXX")
  results="$work/results"; mkdir -p "$results"
  qemu_pid="" guard_pid=""
  trap kguest_cleanup EXIT
}

kguest_cleanup() {
  [[ -n $guard_pid ]] && kill "$guard_pid" 2>/dev/null && wait "$guard_pid" 2>/dev/null
  [[ -n $qemu_pid ]] && kill "$qemu_pid" 2>/dev/null && wait "$qemu_pid" 2>/dev/null
  if [[ -n ${KEEP_WORK:-} ]]; then echo "kept $work"; else rm -rf "$work"; fi
}

# kguest_closure ROOT VERSION MODULE…: the .ko paths (relative to ROOT) of the modules and
# everything they depend on, from ROOT's modules.dep (names with - and _ alike); a module the
# kernel has built in (modules.builtin) needs no file.
kguest_closure() {
  /usr/bin/python3 - "$@" <<'PY'
import os, sys
root, version, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
base = f"/lib/modules/{version}"
norm = lambda p: os.path.basename(p).split(".ko")[0].replace("-", "_")   # .ko, or .ko.xz (6.12)
deps = {}
builtin_list = os.path.join(root, base.lstrip("/"), "modules.builtin")   # 6.12 builds virtio_pci in
builtin = {norm(l.strip()) for l in open(builtin_list)} if os.path.exists(builtin_list) else set()
for line in open(os.path.join(root, base.lstrip("/"), "modules.dep")):
    if ":" not in line: continue
    mod, rest = line.split(":", 1)
    deps[norm(mod)] = (mod.strip(), rest.split())
out, todo = {}, [w.replace("-", "_") for w in wanted]
while todo:
    name = todo.pop()
    if name in out or (name in builtin and name not in deps): continue
    if name not in deps: sys.exit(f"module {name} is not in this kernel (built in, or missing)")
    path, more = deps[name]
    out[name] = path if path.startswith("/") else f"{base}/{path}"
    todo += [norm(m) for m in more]
print("\n".join(sorted(out.values())))
PY
}

kguest_kernel() {
  local meta=${REMOTION_GUEST_KERNEL:-linux-image-amd64}
  package=$(apt-cache depends "$meta" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
  [[ -n $package ]] || fail_now "cannot resolve $meta's kernel package (apt-get update?)"
  local cache_root=${REMOTION_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/remotion-kernel}
  kdir="$cache_root/$package"
  if [[ ! -f $kdir/ready || $(cat "$kdir/ready") != "$kguest_cache_stamp" ]]; then
    mkdir -p "$cache_root"
    local tmp; tmp=$(mktemp -d "$cache_root/.fetch.$$.XXXXXX")
    echo "kernel: apt-get download $package"
    (cd "$tmp" && apt-get -qq -o APT::Sandbox::User=root download "$package") >/dev/null 2>&1 \
      || { rm -rf "$tmp"; fail_now "apt-get download $package failed"; }
    dpkg-deb -x "$tmp"/*.deb "$tmp/root" || { rm -rf "$tmp"; fail_now "dpkg-deb -x $package failed"; }
    rm -f "$tmp"/*.deb
    # The uncompressed kernel boots through its PVH note and saves the guest ~3 s of unpacking.
    # The payload is where the bzImage's setup header says (payload_offset and _length, from
    # the protected-mode code): xz in 6.1, zstd in 6.12 (the zstd tool: scripts/setup.sh).
    /usr/bin/python3 - "$tmp"/root/boot/vmlinuz-* "$tmp/vmlinux" <<'PY' || { rm -rf "$tmp"; fail_now "cannot unpack the kernel image"; }
import lzma, struct, subprocess, sys
data = open(sys.argv[1], "rb").read()
if data[0x202:0x206] != b"HdrS": sys.exit("not a bzImage: " + sys.argv[1])
code = ((data[0x1F1] or 4) + 1) * 512
offset, length = struct.unpack_from("<II", data, 0x248)
payload = data[code + offset:code + offset + length]
if payload.startswith(b"\xfd7zXZ\x00"):
    out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
elif payload.startswith(b"\x28\xb5\x2f\xfd"):
    # (Its last 4 bytes are the unpacked size the kernel's build appends, not zstd's.)
    out = subprocess.run(["zstd", "-dc"], input=payload[:-4], capture_output=True, check=True).stdout
else:
    sys.exit(f"the kernel's payload is neither xz nor zstd ({payload[:4].hex()})")
if out[:4] != b"\x7fELF": sys.exit("the payload is not an ELF kernel")
open(sys.argv[2], "wb").write(out)
PY
    # Only the modules the stages load and their dependencies stay (~70 MB instead of ~460 MB).
    local v; v=$(basename "$(ls -d "$tmp"/root/lib/modules/*/ | head -1)")
    /bin/busybox depmod -b "$tmp/root" "$v" || { rm -rf "$tmp"; fail_now "busybox depmod failed"; }
    local keep; keep=$(kguest_closure "$tmp/root" "$v" "${kguest_cache_modules[@]}") || { rm -rf "$tmp"; fail_now "module closure failed"; }
    find "$tmp/root/lib/modules" -name '*.ko' -o -name '*.ko.xz' | while read -r f; do
      grep -qxF "${f#"$tmp/root"}" <<<"$keep" || rm -f "$f"
    done
    # Kernels from 6.2 on (Debian's 6.12) ship their modules xz-compressed: the kept ones are
    # unpacked, so that the guest's busybox loads them as it loads 6.1's, and listed again.
    if find "$tmp/root/lib/modules" -name '*.ko.xz' | grep -q .; then
      /usr/bin/python3 - "$tmp/root/lib/modules" <<'PY' || { rm -rf "$tmp"; fail_now "cannot unpack the modules"; }
import lzma, os, sys
for folder, _, names in os.walk(sys.argv[1]):
    for n in names:
        if n.endswith(".ko.xz"):
            p = os.path.join(folder, n)
            open(p[:-3], "wb").write(lzma.open(p).read())
            os.remove(p)
PY
      /bin/busybox depmod -b "$tmp/root" "$v" || { rm -rf "$tmp"; fail_now "busybox depmod failed"; }
    fi
    rm -rf "$tmp/root/usr" "$tmp"/root/boot/vmlinuz-*
    echo "$kguest_cache_stamp" >"$tmp/ready"
    rm -rf "$kdir.old"; [[ -d $kdir ]] && mv -T "$kdir" "$kdir.old"
    if ! mv -T "$tmp" "$kdir" 2>/dev/null; then rm -rf "$tmp"; fi  # another run got there first
    rm -rf "$kdir.old"
  fi
  [[ -f $kdir/ready ]] || fail_now "the kernel cache $kdir is incomplete"
  version=$(basename "$(ls -d "$kdir"/root/lib/modules/*/ | head -1)")
}

kguest_initramfs() {
  local inside=$1; shift
  local ir="$work/initramfs" paths f
  mkdir -p "$ir/bin"
  cp /bin/busybox "$ir/bin/busybox"
  paths=$(kguest_closure "$kdir/root" "$version" "$@") || fail_now "the modules $* are not all in $package"
  for f in $paths; do
    mkdir -p "$ir/$(dirname "$f")"
    cp "$kdir/root$f" "$ir$f" || fail_now "module $f is not in the cache $kdir"
  done
  /bin/busybox depmod -b "$ir" "$version" || fail_now "busybox depmod failed"
  cat >"$ir/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /newroot
mount -t proc proc /proc && mount -t sysfs sysfs /sys && mount -t devtmpfs devtmpfs /dev
for m in $*; do modprobe \$m || echo "init: modprobe \$m failed"; done
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
exec switch_root /newroot /bin/busybox sh -c '/bin/bash /run/repo/$inside >/run/results/inside.log 2>&1; echo \$? >/run/results/inside.rc; sync; /bin/busybox poweroff -f'
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
}

# Boot. TCG: /dev/kvm here is a PVM hypervisor that hangs stock kernels
# (../shared/notes/kernel-guest-lab.md); a hung guest ends at the deadline (about twice what
# the stage takes on an idle machine) times the guest's pace (kguest_guard).
kguest_boot() { kguest_start "$1" && kguest_wait; }

kguest_start() {
  local deadline=$1 net=(-nic none) a; shift
  if (($#)); then
    # A network only as the kernel-guest notes allow it: user-mode, restrict=on (the guest
    # reaches nothing outside), ports forwarded to 127.0.0.1 alone.
    for a in "$@"; do
      if [[ $a == user,* ]]; then
        [[ ,$a, == *,restrict=on,* ]] || fail_now "kguest_start: user-mode networking without restrict=on: $a"
        [[ $a != *hostfwd=* || ! $(grep -oE 'hostfwd=[^,]*' <<<"$a" | grep -vE '^hostfwd=tcp:127\.0\.0\.1:[0-9]+-:[0-9]+$') ]] \
          || fail_now "kguest_start: a port forwarded from elsewhere than 127.0.0.1: $a"
      fi
    done
    net=("$@")
  fi
  echo "kernel: $package ($version), booting with $(basename "$bin") from $(dirname "$bin")"
  boot_started=$(date +%s.%N)
  qemu-system-x86_64 -accel tcg -machine q35 -m 1024 -smp "${GUEST_CPUS:-1}" -nographic -nodefaults "${net[@]}" \
    -no-reboot -serial mon:stdio -kernel "$kdir/vmlinux" -initrd "$work/initramfs.cpio" \
    -append "console=ttyS0 quiet panic=-1" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$results",mount_tag=results,security_model=none,multidevs=remap \
    -virtfs local,path="$repo",mount_tag=repo,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$(dirname "$bin")",mount_tag=bin,security_model=none,readonly=on,multidevs=remap \
    </dev/null >"$work/console.log" 2>&1 &
  qemu_pid=$!
  kguest_guard "$deadline" "$qemu_pid" &
  guard_pid=$!
}

# The hang guard: stops the guest DEADLINE seconds after boot, times the guest's pace (1 on an
# idle machine, more as a busy computer slows the emulated CPU, at most 10). So a slow guest on
# a loaded machine gets the time it needs, and a hung one still ends. It says so in work/guard.
#
# The pace runs on: the inside script times a fixed loop as it starts (results/pace.start), and
# every second the guard reads how long QEMU's busiest thread (the emulated CPU) ran and how
# long it waited for a core (/proc/PID/task/*/schedstat). Over the last 5 s, (ran + waited) /
# ran is how many times slower the emulated CPU runs than with a core to itself; it counts once
# the thread ran 1.5 s of the 5 (an idle guest halts its CPU, and its few runs say nothing). The
# guard writes the larger of the two to results/pace, which the guest's waits read (their
# bounds stretch by it), and the most it wrote to results/pace.max. A loop timed inside the
# guest would not do: the guest's own work (its hosts, emulators and readers on the one CPU)
# slowed such a loop 4-10 times on an idle machine.
kguest_guard() {
  local deadline=$1 pid=$2 began=$EPOCHREALTIME pace=1 limit tick
  local -A last_run=() last_wait=()
  local -a window_run=() window_wait=()
  local host=100 start="" top=100 held written="" f tid r w rest best_r best_w sum_r sum_w x
  # Its second is a read that times out on a FIFO nobody writes, not a `sleep` child, which
  # would outlive the guard when it is stopped.
  mkfifo "$work/guard.$BASHPID" && exec {tick}<>"$work/guard.$BASHPID" || return
  while kill -0 "$pid" 2>/dev/null; do
    read -r -t 1 -u "$tick" _
    best_r=0 best_w=0
    for f in /proc/"$pid"/task/*/schedstat; do
      read -r r w rest <"$f" 2>/dev/null || continue
      tid=${f%/schedstat}; tid=${tid##*/}
      if [[ -n ${last_run[$tid]:-} ]] && ((r - last_run[$tid] > best_r)); then
        best_r=$((r - last_run[$tid])) best_w=$((w - last_wait[$tid]))
      fi
      last_run[$tid]=$r last_wait[$tid]=$w
    done
    window_run+=("$best_r") window_wait+=("$best_w")
    if ((${#window_run[@]} > 5)); then window_run=("${window_run[@]:1}") window_wait=("${window_wait[@]:1}"); fi
    sum_r=0 sum_w=0
    for x in "${window_run[@]}"; do sum_r=$((sum_r + x)); done
    for x in "${window_wait[@]}"; do sum_w=$((sum_w + x)); done
    ((sum_r >= 1500000000)) && host=$(((sum_r + sum_w) * 100 / sum_r))
    # The start's pace, read once the guest has written it (before that, nothing is written).
    if [[ -z $start && -s $results/pace.start ]]; then
      start=$(awk '{ printf "%d", $1 * 100 }' "$results/pace.start" 2>/dev/null)
      [[ $start =~ ^[0-9]+$ ]] || start=100
      top=$start   # results/pace.max says only a pace above the start's
    fi
    held=$((host > ${start:-100} ? host : ${start:-100})); ((held > 1000)) && held=1000; ((held < 100)) && held=100
    pace=$(printf '%d.%02d' $((held / 100)) $((held % 100)))
    if [[ $pace != "$written" && -n $start ]]; then
      echo "$pace" >"$results/pace.next" && mv -f "$results/pace.next" "$results/pace" && written=$pace
      ((held > top)) && { top=$held; echo "$pace" >"$results/pace.max"; }
    fi
    limit=$(awk -v d="$deadline" -v p="$pace" 'BEGIN { printf "%d", d * p }')
    if (( ${EPOCHREALTIME%.*} - ${began%.*} > limit )); then
      echo "the hang guard stopped the guest after $limit s (deadline $deadline s × its pace $pace)" >"$work/guard"
      kill -TERM "$pid" 2>/dev/null; read -r -t 5 -u "$tick" _; kill -KILL "$pid" 2>/dev/null
      return
    fi
  done
}

kguest_wait() {
  local qemu_rc
  wait "$qemu_pid"; qemu_rc=$?; qemu_pid=""
  kill "$guard_pid" 2>/dev/null; wait "$guard_pid" 2>/dev/null; guard_pid=""
  [[ -s $work/guard ]] && echo "guest: $(cat "$work/guard")"
  [[ -s $results/pace.start ]] && echo "guest: its pace $(cat "$results/pace.start") at the start$([[ -s $results/pace.max ]] && echo ", up to $(cat "$results/pace.max") while it ran") (its bounded waits and the hang guard stretched by it; 1 = an idle machine)"
  guest_seconds=$(/usr/bin/python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.1f}')" "$boot_started")
  if [[ ! -f $results/booted ]]; then
    echo "--- guest console (last 30 lines)"; tail -30 "$work/console.log"
    KEEP_WORK=1
    fail_now "the guest did not boot (qemu exit $qemu_rc after ${guest_seconds} s; console in $work/console.log)"
  fi
  echo "guest: booted $(cat "$results/booted"), powered off after ${guest_seconds} s (qemu exit $qemu_rc)"
  # Where the guest's time went: each step the inside script named, at its second since boot.
  [[ -f $results/inside.log ]] && echo "guest steps: $(grep -E '^\[[0-9.]+\] ' "$results/inside.log" | cut -c1-60 | paste -sd'|' - | sed 's/|/ | /g')"
  if [[ ! -f $results/inside.rc ]]; then
    echo "--- guest console (last 30 lines)"; tail -30 "$work/console.log"
    echo "--- inside.log (last 30 lines)"; tail -30 "$results/inside.log" 2>/dev/null
    KEEP_WORK=1
    fail_now "the test inside the guest did not finish (qemu exit $qemu_rc after ${guest_seconds} s)"
  fi
}

# The checks, on what the guest wrote (their last line: N passed, N failed); the work folder
# is kept when they fail.
kguest_check() {
  local label=$1 checker=$2 total rc
  total=$(/usr/bin/python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.1f}')" "$started")
  echo "$label: ${total} s in all (guest ${guest_seconds} s)"
  /usr/bin/python3 "$repo/$checker" "$results"; rc=$?
  if [[ $rc -ne 0 ]]; then KEEP_WORK=1; fi
  return $rc
}
