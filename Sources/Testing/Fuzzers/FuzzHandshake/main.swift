// libFuzzer entry point (docs/FUZZING.md). This file holds nothing else: in a
// `--sanitize=fuzzer` build SwiftPM compiles it with -parse-as-library and
// libFuzzer supplies `main`; in a normal build the empty top level makes this a
// do-nothing executable, so `swift build` still links it.
import RemotionFuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    HandshakeProperties.assertHold(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
