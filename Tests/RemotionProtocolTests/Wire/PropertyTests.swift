import Testing
import RemotionProtocol
@testable import RemotionProtocol

/// Seeded property tests: random and mutated datagrams decode to a message or a typed
/// `WireError` and never trap; whatever decodes re-encodes to exactly the same bytes.
@Suite struct PropertyTests {
    /// Tally of outcomes so each test can show it explored both sides.
    struct Tally {
        var decoded = 0
        var errors: [WireError: Int] = [:]
        var nonCanonical: [[UInt8]] = []

        mutating func feed(_ bytes: [UInt8]) {
            switch decodeCanonically(bytes) {
            case .success(let d):
                decoded += 1
                if d.encode() != bytes, nonCanonical.count < 5 { nonCanonical.append(bytes) }
            case .failure(let e):
                errors[e, default: 0] += 1
            }
        }
    }

    @Test func randomValidDatagramsRoundTripBytewise() throws {
        var g = SplitMix64(seed: 0x5EED_0001)
        for _ in 0..<100_000 {
            let d = Gen.datagram(&g)
            let bytes = d.encode()
            #expect(bytes.count <= maxDatagramSize)
            let back = try PlainDatagram.decode(bytes)
            // Compare bytes, not values: -0.0 == 0.0 would hide a lost sign bit.
            #expect(back.encode() == bytes)
            #expect(back.session == d.session && back.message.typeCode == d.message.typeCode)
        }
    }

    @Test func randomBytesNeverTrap() {
        var g = SplitMix64(seed: 0x5EED_0002)
        var tally = Tally()
        let validHeader: [UInt8] = [0x52, 0x01, 0x01, 0x00, 0x2a, 0x00, 0x00, 0x00]
        for i in 0..<100_000 {
            let length = Int.random(in: 0...96, using: &g)
            var bytes: [UInt8]
            switch i % 3 {
            case 0: bytes = g.bytes(length)                                 // anything at all
            case 1: bytes = validHeader + g.bytes(length)                   // reaches the message decoder
            default:                                                        // a known type, random body
                bytes = validHeader + [UInt8.random(in: 1...6, using: &g)] + g.bytes(length)
            }
            tally.feed(bytes)
        }
        #expect(tally.nonCanonical.isEmpty, "non-canonical: \(tally.nonCanonical.map(hex))")
        #expect(tally.decoded > 0)
        #expect(tally.decoded + tally.errors.values.reduce(0, +) == 100_000)
        // Random bytes reach deep into the decoder: nearly every error shows up.
        #expect(tally.errors.count >= 10, "errors seen: \(tally.errors)")
    }

    @Test func mutatedDatagramsNeverTrap() {
        var g = SplitMix64(seed: 0x5EED_0003)
        var tally = Tally()
        var kinds = [0, 0, 0, 0]
        for _ in 0..<100_000 {
            var bytes = Gen.datagram(&g).encode()
            let kind = Int.random(in: 0..<4, using: &g)
            kinds[kind] += 1
            switch kind {
            case 0: // flip 1...3 bits
                for _ in 0..<Int.random(in: 1...3, using: &g) {
                    bytes[Int.random(in: 0..<bytes.count, using: &g)] ^= 1 << UInt8.random(in: 0..<8, using: &g)
                }
            case 1: // truncate
                bytes.removeLast(Int.random(in: 1...bytes.count, using: &g))
            case 2: // extend
                bytes += g.bytes(Int.random(in: 1...16, using: &g))
            default: // substitute 1...3 bytes
                for _ in 0..<Int.random(in: 1...3, using: &g) {
                    bytes[Int.random(in: 0..<bytes.count, using: &g)] = g.byte()
                }
            }
            tally.feed(bytes)
        }
        #expect(kinds.allSatisfy { $0 > 20_000 })
        #expect(tally.nonCanonical.isEmpty, "non-canonical: \(tally.nonCanonical.map(hex))")
        #expect(tally.decoded > 0)
        #expect(tally.errors[.truncated, default: 0] > 0 && tally.errors[.trailingBytes, default: 0] > 0)
        #expect(tally.errors.count >= 10, "errors seen: \(tally.errors)")
    }

    /// Every prefix of a valid datagram is rejected as truncated (never decoded as
    /// something shorter), and one extra byte is always trailing.
    @Test func everyPrefixIsTruncated() {
        var g = SplitMix64(seed: 0x5EED_0004)
        for _ in 0..<500 {
            let bytes = Gen.datagram(&g).encode()
            for n in 0..<bytes.count {
                #expect(throws: WireError.truncated) { try PlainDatagram.decode(Array(bytes[..<n])) }
            }
            #expect(throws: WireError.trailingBytes) { try PlainDatagram.decode(bytes + [0]) }
        }
    }
}
