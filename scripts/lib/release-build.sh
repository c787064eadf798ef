# Sourced by scripts/package.sh: the two builds the .deb needs (CI runs package.sh itself, in
# a fresh clone: scripts/idle-builds.sh).
#   release_build SCRATCH    the static release binary: SCRATCH/release/remotion
#   generate_manual_build    swift-argument-parser's generate-manual, which writes the man
#                            pages: .build/generate-manual/debug/generate-manual
release_build() {
  swift build -c release --static-swift-stdlib --product remotion --scratch-path "$1"
}
generate_manual_build() {
  swift build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/generate-manual \
    --product generate-manual
}
