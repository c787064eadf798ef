import Foundation
import RemotionFuzzChecks
import RemotionProtocol
import Testing

/// The fuzz targets' property checks run in the normal test suite too: on every
/// seed, on deterministic mutations of every seed, and against the checked-in
/// corpus (which must match what `FuzzSeeds` generates).
@Suite struct FuzzChecksTests {
    static var corpusRoot: URL {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("Fuzz/corpus")
    }

    /// Byte flips at up to `positions` spread-out offsets, plus every truncation step of 7.
    static func mutations(of bytes: [UInt8], positions: Int = 48) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let stride = max(1, bytes.count / positions)
        for i in Swift.stride(from: 0, to: bytes.count, by: stride) {
            for mask: UInt8 in [0x01, 0x80] {
                var m = bytes
                m[i] ^= mask
                out.append(m)
            }
        }
        for n in Swift.stride(from: 0, to: bytes.count, by: 7) { out.append(Array(bytes.prefix(n))) }
        out.append(bytes + [0])
        return out
    }

    @Test func datagramSeedsSatisfyTheProperties() {
        for seed in DatagramSeeds.all {
            #expect((try? PlainDatagram.decode(seed.bytes)) != nil, "\(seed.name) must be a valid datagram")
            #expect(DatagramProperties.check(seed.bytes) == nil, "\(seed.name)")
        }
    }

    @Test func datagramMutationsSatisfyTheProperties() {
        for seed in DatagramSeeds.all {
            for m in Self.mutations(of: seed.bytes) {
                let v = DatagramProperties.check(m)
                #expect(v == nil, "\(seed.name): \(v.map(String.init(describing:)) ?? "")")
            }
        }
    }

    @Test func handshakeSeedsAreGenuineAndSatisfyTheProperties() throws {
        let f = HandshakeFixture.shared
        for step in f.steps {
            let d = try HandshakeDatagram.decode(step.datagram)
            #expect(DoSMacs.verifyMac1(step.datagram, mac1Key: f.mac1Key))
            var reader = step.readerBefore
            #expect(try reader.readMessage(d.noiseMessage) == step.payload)
        }
        var jar = f.cookieJar
        try jar.receive(reply: f.cookieReply, sentMac1: f.sentMac1, now: f.cookieTime)
        for (counter, bytes) in f.transportSeeds {
            var rx = f.transportReceiver
            var out: [UInt8] = []
            let accepted = (try? rx.open(bytes, into: &out)) == counter
            #expect(accepted == !HandshakeFixture.acceptedCounters.contains(counter), "counter \(counter)")
        }
        for seed in f.seeds {
            let v = HandshakeProperties.check(seed.bytes)
            #expect(v == nil, "\(seed.name): \(v.map(String.init(describing:)) ?? "")")
        }
    }

    @Test func handshakeMutationsSatisfyTheProperties() {
        for seed in HandshakeFixture.shared.seeds {
            for m in Self.mutations(of: seed.bytes, positions: 24) {
                let v = HandshakeProperties.check(m)
                #expect(v == nil, "\(seed.name): \(v.map(String.init(describing:)) ?? "")")
            }
        }
    }

    @Test func checkedInCorpusIsCurrent() throws {
        let sets: [(String, [(name: String, bytes: [UInt8])])] = [
            ("datagram", DatagramSeeds.all), ("handshake", HandshakeFixture.shared.seeds),
        ]
        for (target, seeds) in sets {
            let dir = Self.corpusRoot.appendingPathComponent(target)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".bin") }
            #expect(Set(files) == Set(seeds.map { $0.name + ".bin" }), "run `swift run FuzzSeeds` to regenerate")
            for seed in seeds {
                let data = try Data(contentsOf: dir.appendingPathComponent(seed.name + ".bin"))
                #expect([UInt8](data) == seed.bytes, "\(target)/\(seed.name).bin is stale: run `swift run FuzzSeeds`")
            }
        }
    }

    @Test func violationDescriptionNamesPropertyAndInput() {
        let v = PropertyViolation("re-encodes differently", input: [0x52, 0x01, 0xff])
        #expect(v.description == "property violated: re-encodes differently; input (3 bytes): 5201ff")
    }
}
