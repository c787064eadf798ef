import RemotionProtocol
import Testing

/// The secure protocol's wire facts that docs/NOISE.md §4.1 and §4.5 state, held as
/// sizes and golden bytes: XXpsk3 messages of 96, 144 and 112 + name bytes, the IK
/// initiation of 160 and the empty-payload IK response of 96, the pairing answers
/// "remotion paired" / "remotion refused" (47 and 48 bytes sealed), the name's limit,
/// byte-identical retransmissions of message 2.
@Suite struct PairingWireTests {
    struct Address: SourceAddress {
        var cookieBytes: [UInt8] { [127, 0, 0, 1, 0x1d, 0x32] }
    }

    static let secret: [UInt8] = Array(0..<16)

    /// A host with an open pairing window and a controller with its code, from fixed seeds.
    static func pair(name: String, seed: UInt64 = 1) -> (host: SecureHost<Address>, client: PairingClient,
                                                         hostRandom: SplitMix64, clientRandom: SplitMix64) {
        var keys = SplitMix64(seed: seed)
        let hostKey = keys.keyPair(), clientKey = keys.keyPair()
        var hostRandom = SplitMix64(seed: seed + 100)
        var host = SecureHost<Address>(staticKey: hostKey, trusted: [], now: .zero, random: &hostRandom)
        host.openPairing(psk: PairingCode.psk(secret: secret), until: .zero + .seconds(120))
        let code = PairingCode(hostKey: hostKey.publicKey, secret: secret, address: "127.0.0.1:7474")
        return (host, PairingClient(staticKey: clientKey, code: code, name: name), hostRandom, SplitMix64(seed: seed + 200))
    }

    /// The exchange from seed 1 (name "phone"), byte for byte: if the code changes them,
    /// docs/NOISE.md §4.1/§4.5 must be checked too.
    static let golden: [String: String] = [
        "m0": "520102000091cf4f0091cf4f0300000092a4cf36958143be648e92886613a876953f6b8b25d7c093f028fe6cf0b08420d1e56886ec3e3756f755151622341e027e54995ef2513888e6cf11769da0fc9000000000000000000000000000000000",
        "m1": "520103000091cf4fbab12a6703010000f921f4a14df138593846bd0302f1ef7caff877a8c9dfd87a832e8e11f6a45d60c20afe804b2678e5a0dd24eb373282c0bf82400ec8c5343021fbaadec72e8f4c0820a1df4fe728044e563e87b9b0b6f3fc4c6ede4e6ca1779e0d87a294be100b3d54eb6bb1e12c428a27f4e75d456b5300000000000000000000000000000000",
        "m2": "52010200bab12a670091cf4f03020000df81e8328afe67e93dbdc558601b526ffb3df9503ebb2345673d1e938ae694e6cd7320b937c8e945837c6d410a075305ca086d2a88d7222ba9c551ef150efc0a3c40b4759940599feabc414d2c26c52c8afc33aae200000000000000000000000000000000",
        "answer": "520105000091cf4f0000000000000000376bffdc9b6de506a7aa82b89c899d593523175bc7bca9b86073bfff3e4df8",
    ]

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { b in let s = String(b, radix: 16); return s.count == 1 ? "0" + s : s }.joined()
    }

    @Test func xxpsk3MessagesHaveTheDocumentedSizesAndLayout() throws {
        var (host, client, hostRandom, clientRandom) = Self.pair(name: "phone")
        let now = Instant.zero + .seconds(1)
        let m0 = try #require(client.retransmission(now: now, random: &clientRandom))
        #expect(Self.hex(m0) == Self.golden["m0"], "golden bytes (seeded keys and randomness)")
        #expect(m0.count == 96, "header 16 + e 32 + empty payload's tag 16 + mac1 16 + mac2 16")
        #expect(Array(m0[0..<4]) == [0x52, 0x01, 0x02, 0x00])
        #expect(Array(m0[4..<8]) == Array(m0[8..<12]), "message 0: session = the sender's own index")
        #expect(Array(m0[12..<16]) == [0x03, 0x00, 0x00, 0x00], "pattern 3 (XXpsk3), message 0, reserved")
        #expect(Array(m0[80..<96]) == [UInt8](repeating: 0, count: 16), "no cookie: mac2 zero")
        guard case let .reply(m1) = m0.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }) else {
            Issue.record("no message 1"); return
        }
        #expect(Self.hex(m1) == Self.golden["m1"], "golden bytes (seeded keys and randomness)")
        #expect(m1.count == 144, "header 16 + e 32 + s 48 + empty payload's tag 16 + macs 32")
        #expect(Array(m1[0..<4]) == [0x52, 0x01, 0x03, 0x00])
        #expect(Array(m1[4..<8]) == Array(m0[8..<12]), "addressed to the controller's index")
        #expect(Array(m1[12..<14]) == [0x03, 0x01])
        guard case let .send(m2) = m1.withUnsafeBytes({ client.inbound($0, now: now, random: &clientRandom) }) else {
            Issue.record("no message 2"); return
        }
        #expect(Self.hex(m2) == Self.golden["m2"], "golden bytes (seeded keys and randomness)")
        #expect(m2.count == 112 + 5, "header 16 + s 48 + name 5 + tag 16 + macs 32")
        #expect(Array(m2[12..<14]) == [0x03, 0x02])
        #expect(client.retransmission(now: now + .milliseconds(500), random: &clientRandom) == m2,
                "message 2 is retransmitted byte for byte")
        // Waiting for the user: handled, neither answered nor dropped.
        #expect(m2.withUnsafeBytes { host.inbound($0, from: Address(), now: now, random: &hostRandom) } == .handled)
        #expect(m2.withUnsafeBytes { host.inbound($0, from: Address(), now: now, random: &hostRandom) } == .handled)
        #expect(host.drops.total == 0)
        let request = try #require(host.takePairingRequests().first)
        #expect(request.name == "phone")
        host.decidePairing(request.id, accept: true)
        guard case let .reply(answer) = m2.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }) else {
            Issue.record("no answer"); return
        }
        #expect(Self.hex(answer) == Self.golden["answer"], "golden bytes (seeded keys and randomness)")
        #expect(answer.count == 32 + "remotion paired".utf8.count, "transport: header 8 + counter 8 + 15 + tag 16")
        #expect(Array(answer[0..<4]) == [0x52, 0x01, 0x05, 0x00])
        let outcome = answer.withUnsafeBytes { client.inbound($0, now: now, random: &clientRandom) }
        #expect(outcome == .finished(.accepted(hostKey: host.staticKey.publicKey)))
    }

    @Test func aRefusalIsSealedAsRemotionRefused() throws {
        var (host, client, hostRandom, clientRandom) = Self.pair(name: "stranger", seed: 2)
        let now = Instant.zero + .seconds(1)
        let m0 = try #require(client.retransmission(now: now, random: &clientRandom))
        guard case let .reply(m1) = m0.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }),
              case let .send(m2) = m1.withUnsafeBytes({ client.inbound($0, now: now, random: &clientRandom) }) else {
            Issue.record("handshake failed"); return
        }
        _ = m2.withUnsafeBytes { host.inbound($0, from: Address(), now: now, random: &hostRandom) }
        let request = try #require(host.takePairingRequests().first)
        host.decidePairing(request.id, accept: false)
        guard case let .reply(answer) = m2.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }) else {
            Issue.record("no answer"); return
        }
        #expect(answer.count == 32 + "remotion refused".utf8.count)
        #expect(answer.withUnsafeBytes { client.inbound($0, now: now, random: &clientRandom) } == .finished(.refused))
    }

    @Test func message0RetriesAreFreshHandshakes() throws {
        var (_, client, _, clientRandom) = Self.pair(name: "phone")
        let first = try #require(client.retransmission(now: .zero, random: &clientRandom))
        let second = try #require(client.retransmission(now: .zero + .milliseconds(500), random: &clientRandom))
        #expect(first.count == second.count)
        #expect(first != second, "new ephemeral key and index per retry")
    }

    @Test func theNameIsUTF8OfAtMost64BytesCutAtACharacter() throws {
        for (name, sent) in [(String(repeating: "n", count: 100), String(repeating: "n", count: 64)),
                             (String(repeating: "a", count: 63) + "é", String(repeating: "a", count: 63)),
                             ("Pixel 7 · Küche", "Pixel 7 · Küche")] {
            var (host, client, hostRandom, clientRandom) = Self.pair(name: name)
            let now = Instant.zero + .seconds(1)
            let m0 = try #require(client.retransmission(now: now, random: &clientRandom))
            guard case let .reply(m1) = m0.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }),
                  case let .send(m2) = m1.withUnsafeBytes({ client.inbound($0, now: now, random: &clientRandom) }) else {
                Issue.record("handshake failed"); return
            }
            #expect(m2.count == 112 + sent.utf8.count, "\(name.prefix(10))…")
            _ = m2.withUnsafeBytes { host.inbound($0, from: Address(), now: now, random: &hostRandom) }
            #expect(host.takePairingRequests().first?.name == sent)
        }
    }

    @Test func ikInitiationIs160AndItsResponse96() throws {
        var random = SplitMix64(seed: 9)
        let hostKey = random.keyPair(), clientKey = random.keyPair()
        var host = SecureHost<Address>(staticKey: hostKey, trusted: [clientKey.publicKey], now: .zero, random: &random)
        var client = SecureClient(staticKey: clientKey, hostStatic: hostKey.publicKey, clientSession: SessionID(7))
        let wall = TAI64N(unixSeconds: 1_700_000_000, nanoseconds: 0)
        let initiation = try #require(client.initiation(now: .zero, wallClock: wall, random: &random))
        #expect(initiation.count == 160, "16 + e 32 + s 48 + TAI64N 12 + session 4 + tag 16 + macs 32")
        #expect(Array(initiation[12..<14]) == [0x01, 0x00], "pattern 1 (IK), message 0")
        guard case let .reply(response) = initiation.withUnsafeBytes({ host.inbound($0, from: Address(), now: .zero, random: &random) }) else {
            Issue.record("no response"); return
        }
        #expect(response.count == 96, "16 + e 32 + the empty payload's tag 16 + macs 32")
        #expect(Array(response[0..<4]) == [0x52, 0x01, 0x03, 0x00])
        #expect(Array(response[12..<14]) == [0x01, 0x01])
    }

    @Test func thePairingCodeIsUpperCaseRFC4648Base32WithoutPadding() throws {
        let code = PairingCode(hostKey: Array(0..<32), secret: Self.secret, address: "127.0.0.1:7474")
        // Python: base64.b32encode(bytes(range(32))).rstrip(b"=") and the same of range(16).
        let golden = "remotion-pair:v1:AAAQEAYEAUDAOCAJBIFQYDIOB4IBCEQTCQKRMFYYDENBWHA5DYPQ:AAAQEAYEAUDAOCAJBIFQYDIOB4@127.0.0.1:7474"
        #expect(code.description == golden)
        #expect(try PairingCode.parse(golden) == code)
        // Base32 is read in either case (a code typed by hand); the prefix is not.
        let lowered = "remotion-pair:v1:" + golden.dropFirst(17).lowercased()
        #expect(try PairingCode.parse(lowered) == code)
        #expect(throws: PairingCode.ParseError.self) { try PairingCode.parse(golden.uppercased()) }
        #expect(throws: PairingCode.ParseError.self) { try PairingCode.parse(golden.replacingOccurrences(of: "AAAQ", with: "AAA1")) }
    }
}
