import RemotionFuzzChecks
import RemotionProtocol
import RemotionHostLogic

/// FuzzHost: the host's engine driven through `EnginePair` by a fuzzed script, every origin
/// at once on one engine of four slots — two UDP phones (Noise IK handshakes, sealed and
/// tampered datagrams, raw bytes), two pages (either transport: motion frames, buttons,
/// pings, commands and page input, malformed frames), a DSU server's four slots (pad data
/// at any value, raw bytes) and two local pads (evdev frames at any value, keys, plugged and
/// unplugged), with virtual time running on (to each deadline, or a stall of the host's
/// loop), a game's rumble and the desktop session switched away and back. The input decides
/// which origin speaks, what it sends and how far time moves (`EngineSteps`).
///
/// Checked after every step: nothing traps; every output in its physical range (pointer on
/// the screen or within ±1e9 counts, pad sticks ±1 and triggers 0…1 and motion never NaN,
/// DSU's served gyro ±2000 °/s and acceleration ±8 g); a session that ends holds no input
/// and no pad; no pad state while suspended; every datagram the host seals opens at its
/// peer; the slots never exceed the limit, on the engine or the wire machine; no timer due
/// again at or before the time it ran. At the end every controller goes (silence, its
/// transport's end, the engine's backstop) and nothing is held, no pad is open, no session left.
package enum EngineProperties {
    package static let maximum = 4

    package static func run(_ bytes: [UInt8]) -> PropertyViolation? { check(bytes).violation }

    /// The script, then everyone goes: the first property broken and what the outputs saw.
    package static func check(_ bytes: [UInt8]) -> (violation: PropertyViolation?, counts: EnginePair.Counts) {
        var script = EngineSteps(bytes)
        let pair = script.pair
        while !script.isAtEnd {
            if let broken = script.step() ?? invariants(pair) { return (PropertyViolation(broken, input: bytes), pair.counts) }
        }
        if let broken = everyoneGoes(pair) { return (PropertyViolation(broken, input: bytes), pair.counts) }
        return (nil, pair.counts)
    }

    /// What holds after every step.
    static func invariants(_ pair: EnginePair) -> String? {
        if let p = pair.problems.first { return p }
        if pair.sessionCount > maximum { return "the engine's sessions never exceed --max-controllers (\(pair.sessionCount))" }
        if pair.wire.sessionCount > maximum { return "the wire machine counts no more than --max-controllers" }
        if pair.openPads.count > pair.sessionCount { return "no pad outlives its session" }
        return nil
    }

    /// Every controller goes: the pages' and pads' transports end, the UDP phones and the
    /// DSU server fall silent; half a minute later nothing is held, no pad is open, no
    /// session is left, on the engine or the wire machine.
    static func everyoneGoes(_ pair: EnginePair) -> String? {
        for k in pair.pages.indices { pair.pageCloses(k, .closedByPage) }
        for key in pair.localPads.map(\.key) { pair.unplugPad(key) }
        let (_, spun) = pair.advance(by: .seconds(30), maximumFires: 10_000)
        if spun { return "a timer is never due again at or before the time it ran" }
        if let p = invariants(pair) { return p }
        if pair.sessionCount != 0 || !pair.wire.sessions.isEmpty { return "no session is left once every controller went" }
        if !pair.heldInputs.isEmpty { return "nothing is held once every controller went (\(pair.heldInputs))" }
        if !pair.openPads.isEmpty { return "no pad is open once every controller went" }
        return nil
    }
}
