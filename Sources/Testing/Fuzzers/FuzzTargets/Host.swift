// FuzzHost (docs/FUZZING.md): the whole sans-IO host. The input is a script of steps
// (`HostScript`) — sessions opening and closing, samples from each origin's own decoder (UDP
// wire, the page's frame, DSU pad data, a local pad's evdev frame) with times jumping forward,
// back and to u64's extremes and values at every limit the codec admits, button edges, pads
// given and taken, rumble, the host's clock running on — into the pipeline with every output
// on. The properties are `HostProperties` (RemotionHostFuzzChecks), which the normal suite also
// checks on seeded inputs: nothing traps, every output in range, every held input and pad
// released when its session ends.
import RemotionFuzzChecks
import RemotionHostFuzzChecks

enum HostTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        PropertyViolation.trapIfAny(HostProperties.run(Array(bytes)))
    }
}
