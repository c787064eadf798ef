# Sourced by scripts/package.sh: the two builds the .deb needs (CI runs package.sh itself, in
# a fresh clone: scripts/idle-builds.sh).
#   release_build SCRATCH    the static release binary: SCRATCH/release/remotion (no debug info)
#   generate_manual_build    swift-argument-parser's generate-manual, which writes the man
#                            pages: .build/generate-manual/debug/generate-manual
# No Swift debug info (-gnone): package.sh strips the binary it packs, so the DWARF the
# optimizer would write for every module is work thrown away (SwiftPM's -g comes first on the
# command line and the last -g option wins).
release_build() {
  swift build -c release --static-swift-stdlib -Xswiftc -gnone --product remotion --scratch-path "$1"
}
generate_manual_build() {
  swift build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/generate-manual \
    --product generate-manual
}
