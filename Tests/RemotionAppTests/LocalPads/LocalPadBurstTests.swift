#if os(Linux)
import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
import Testing

/// A starved machine hands the host a pad's reports late and in bursts, their own sensor
/// stamps irregular (12–220 ms apart, as a starved emulated pad's were in the QEMU guest,
/// where the local-pads stage once saw the pointer move 24% of what the stamps give). The
/// gyro mouse integrates each report over its own stamps, capped per step: however the
/// reports are bunched on arrival, the pointer moves what the stamps give. (Reports whose
/// stamps run ahead of the host's clock — a device clock faster than the host's — are held
/// to the host's elapsed time by the sample timeline and move less; not asserted here.)
@Suite struct LocalPadBurstTests {
    typealias T = LocalPadSessionsTests

    /// The counts 90 °/s gives over these stamps at 16/3 px per degree, each step capped at
    /// `GyroMouseMapper.maxStep`, nothing across `resyncGap`.
    static func expected(_ stamps: [UInt32]) -> Double {
        zip(stamps, stamps.dropFirst()).reduce(0) { sum, pair in
            let dt = Double(pair.1 - pair.0) / 1e6
            guard dt > 0, dt <= GyroMouseMapper.resyncGap else { return sum }
            return sum + 90 * min(dt, GyroMouseMapper.maxStep) * 16 / 3
        }
    }

    static let stamps: [UInt32] = {
        var g = SplitMix64(seed: 11)
        var t: UInt32 = 0
        return (0..<200).map { _ in
            defer { t += [12_000, 12_600, 24_000, 13_000, 100_000, 33_000, 220_000][Int(g.next() % 7)] }
            return t
        }
    }()

    func run(burst: Int) throws -> Int {
        let rig = DSURig()
        let sessions = T().open(rig)
        var pad = try T.dualSense()
        var i = 0, clock: UInt32 = 0
        while i < Self.stamps.count {
            // `burst` reports arrive together when the last of them was made (the reader was
            // starved meanwhile): the host's clock is at that report's stamp.
            let chunk = Self.stamps[i..<min(i + burst, Self.stamps.count)]
            rig.advance(by: .microseconds(Int64(chunk.last! - clock)))
            clock = chunk.last!
            for s in chunk { sessions.handle(.events(key: T.key, pad.motionEvents(T.frame(s, yaw: 90))), now: rig.now) }
            i += burst
        }
        return rig.log.movedX
    }

    @Test(arguments: [1, 5, 20]) func burstsMoveWhatTheStampsGive(burst: Int) throws {
        let want = Self.expected(Self.stamps)
        let moved = Double(try run(burst: burst))
        #expect(abs(moved - want) <= 0.02 * want, "moved \(moved) px of \(want) with bursts of \(burst)")
    }
}
#endif
