// FuzzHost (docs/FUZZING.md): the host's engine with every transport's session machine in
// front of it (`EnginePair`, RemotionHostFuzzChecks), every origin at once: the input decides
// which origin speaks — a UDP phone (Noise IK handshakes, sealed, tampered and raw datagrams
// through the wire machine), a page (frames, buttons, pings, commands and page input through
// its session machine), a DSU server's slots (pad data, raw bytes), a local pad (evdev frames,
// keys, plugged and unplugged) —, what it sends and how far virtual time moves. The properties
// are `EngineProperties`, which the normal suite also checks on seeded inputs: nothing traps,
// every output in its physical range, the slots never exceeded, no timer spins, and nothing
// held and no pad open once every controller went. `HostProperties` (the pipeline's decisions
// alone, every limit of each origin's codec) stays in the normal suite.
import RemotionFuzzChecks
import RemotionHostFuzzChecks

enum HostTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        PropertyViolation.trapIfAny(EngineProperties.run(Array(bytes)))
    }
}
