# debian_sources SUITE: sets `mirror` and the array `sources` to SUITE's apt lines on this machine's mirror
# (the first non-security URI of its apt sources, deb822 or one-line), with -updates and, where
# the machine has one, -security; returns 1 when no mirror is configured. For the minimal roots
# scripts/package-test.sh and scripts/libei-mutter-test.sh make with mmdebstrap.
debian_sources() {
  local suite=$1 uris security
  uris=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n'
         grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed 's/\[[^]]*\]//' | awk '{print $2}')
  mirror=$(grep -v -- -security <<<"$uris" | grep -m1 .)
  security=$(grep -m1 -- -security <<<"$uris")
  [[ -n $mirror ]] || return 1
  sources=("deb $mirror $suite main" "deb $mirror $suite-updates main")
  [[ -n $security ]] && sources+=("deb $security $suite-security main")
  return 0
}
