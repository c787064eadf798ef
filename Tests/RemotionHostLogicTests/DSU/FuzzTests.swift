import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Malformed input: random bytes, truncations and mutations of valid packets. The
/// decoder must never trap and must classify every rejection; the state machines count
/// each drop by reason.
@Suite struct FuzzTests {
    @Test func randomBytesNeverTrapAndAreClassified() {
        var g = SplitMix64(seed: 1)
        var reasons: [DSUDecodeError: Int] = [:]
        for _ in 0..<20_000 {
            let n = Int(g.next() % 130)
            var b = g.bytes(n)
            if g.chance(0.5), n >= 4 { b.replaceSubrange(0..<4, with: g.chance(0.5) ? DSU.serverMagic : DSU.clientMagic) }
            if g.chance(0.5), n >= 6 { b[4] = 0xE9; b[5] = 0x03 }
            if case .failure(let e) = decodeResult(b) { reasons[e, default: 0] += 1 }
        }
        #expect(reasons[.truncated, default: 0] > 0)
        #expect(reasons[.badMagic, default: 0] > 0)
        #expect(reasons[.badVersion, default: 0] > 0)
        #expect(reasons[.badLength, default: 0] > 0)
    }

    @Test func everyTruncationOfEveryValidPacketIsRejected() {
        var g = SplitMix64(seed: 2)
        for _ in 0..<300 {
            let bytes = DSUCodec.encode(CodecTests.randomPacket(&g))
            for cut in 0..<bytes.count {
                let r = decodeResult(Array(bytes.prefix(cut)))
                guard case .failure(let e) = r else {
                    Issue.record("a \(cut)-byte prefix of \(bytes.count) bytes decoded")
                    continue
                }
                #expect(e == .truncated || e == .badLength)
            }
        }
    }

    @Test func singleByteMutationsAreCaughtWhereTheyHit() {
        var g = SplitMix64(seed: 3)
        var reasons: [DSUDecodeError: Int] = [:]
        for _ in 0..<5000 {
            var bytes = DSUCodec.encode(CodecTests.randomPacket(&g))
            let i = Int(g.next() % UInt64(bytes.count))
            bytes[i] ^= UInt8(1 + g.next() % 255)
            guard case .failure(let e) = decodeResult(bytes) else {
                Issue.record("mutated byte \(i) of \(bytes.count) decoded")
                continue
            }
            reasons[e, default: 0] += 1
            // Magic and version are checked first; a changed length either overruns
            // the datagram or shortens the CRC span; every other byte is the CRC's.
            switch i {
            // (byte 3 may turn DSUS into DSUC or back: a valid magic, so the CRC catches it)
            case 0..<4: #expect(e == .badMagic || (i == 3 && e == .badCRC))
            case 4..<6: #expect(e == .badVersion)
            case 6..<8: #expect(e == .badLength || e == .badCRC)
            default: #expect(e == .badCRC)
            }
        }
        #expect(reasons[.badCRC, default: 0] > reasons[.badMagic, default: 0])
    }

    @Test func resealedMutationsDecodeOrFailCleanly() {
        // Mutate then fix the CRC: exercises the field checks behind the CRC.
        var g = SplitMix64(seed: 4)
        var outcomes = 0
        for _ in 0..<5000 {
            var bytes = DSUCodec.encode(CodecTests.randomPacket(&g))
            for _ in 0..<(1 + Int(g.next() % 3)) {
                let i = 12 + Int(g.next() % UInt64(bytes.count - 12))
                bytes[i] = g.byte()
            }
            _ = decodeResult(resealed(bytes))
            outcomes += 1
        }
        #expect(outcomes == 5000)
    }

    @Test func stateMachinesCountGarbageByReason() {
        var g = SplitMix64(seed: 5)
        var source = DSUSourceStateMachine(configuration: .init(clientID: 1))
        var server = DSUServerStateMachine<Int, Int>(configuration: .init(serverID: 2))
        _ = source.start(now: .zero)
        var expected: [DSUDropReason: Int] = [:]
        for k in 0..<3000 {
            var b = DSUCodec.encode(CodecTests.randomPacket(&g))
            switch k % 3 {
            case 0: b = Array(b.prefix(Int(g.next() % UInt64(b.count))))
            case 1: b[Int(g.next() % UInt64(b.count))] ^= 0x10
            default: b = g.bytes(Int(g.next() % 120))
            }
            guard case .failure(let e) = decodeResult(b) else { continue }
            expected[.decode(e), default: 0] += 1
            #expect(source.receive(b, now: .milliseconds(Int64(k))).events.isEmpty)
            #expect(server.receive(b, from: k, now: .milliseconds(Int64(k))).isEmpty)
        }
        #expect(source.drops.counts == expected)
        #expect(server.drops.counts == expected)
        #expect(source.drops.total > 2500)
    }
}
