// libFuzzer entry point for the whole sans-IO host (docs/FUZZING.md): the input is a script
// of steps (`HostScript`) — sessions opening and closing, samples from each origin's own
// decoder (UDP wire, the page's frame, DSU pad data, a local pad's evdev frame) with times
// jumping forward, back and to u64's extremes and values at every limit the codec admits,
// button edges, pads given and taken, rumble, the host's clock running on — into the
// pipeline with every output on. The properties are `HostProperties` (RemotionHostFuzzChecks),
// which the normal suite also checks on seeded inputs: nothing traps, every output in range,
// every held input and pad released when its session ends. A normal build makes this a
// do-nothing executable, like the other fuzzers.
import RemotionFuzzChecks
import RemotionHostFuzzChecks

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    PropertyViolation.trapIfAny(HostProperties.run(Array(UnsafeBufferPointer(start: data, count: size))))
    return 0
}
