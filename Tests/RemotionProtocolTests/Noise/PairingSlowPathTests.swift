import RemotionProtocol
import Testing

/// Pairing over a slow path, on virtual time: the controller retries message 0 every
/// 0.5 s with a fresh handshake, and the host's message 1 can come after the next retry
/// went (a loaded host, a congested link). Answering only the newest attempt never pairs
/// once the round trip exceeds the retry interval; the controller keeps its last attempts.
@Suite struct PairingSlowPathTests {
    typealias Address = PairingWireTests.Address

    /// Round trips of 1.2 s (message 1 of attempt k arrives after attempts k+1 and k+2)
    /// and of 3.7 s (after seven more): the controller pairs either way.
    @Test(arguments: [1200, 3700]) func aLateMessageOneStillPairs(roundTripMillis: Int) throws {
        var (host, client, hostRandom, clientRandom) = PairingWireTests.pair(name: "slow phone")
        let rtt = Duration.milliseconds(roundTripMillis)
        var now = Instant.zero + .seconds(1)
        // Message 0 goes out every 0.5 s; each reaches the host and is answered, but every
        // answer takes `rtt` to come back.
        var inFlight: [(arrives: Instant, bytes: [UInt8])] = []
        var message2: [UInt8]?
        for _ in 0..<40 where message2 == nil {
            if let m0 = client.retransmission(now: now, random: &clientRandom) {
                if case let .reply(m1) = m0.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }) {
                    inFlight.append((now + rtt, m1))
                }
            }
            now = now + .milliseconds(500)
            while let first = inFlight.first, first.arrives <= now, message2 == nil {
                inFlight.removeFirst()
                if case let .send(m2) = first.bytes.withUnsafeBytes({ client.inbound($0, now: now, random: &clientRandom) }) {
                    message2 = m2
                }
            }
        }
        let m2 = try #require(message2, "message 1 answered an attempt the controller still remembers")
        #expect(m2.withUnsafeBytes { host.inbound($0, from: Address(), now: now, random: &hostRandom) } == .handled)
        let request = try #require(host.takePairingRequests().first)
        host.decidePairing(request.id, accept: true)
        guard case let .reply(answer) = m2.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }) else {
            Issue.record("no answer"); return
        }
        guard case let .finished(outcome) = answer.withUnsafeBytes({ client.inbound($0, now: now, random: &clientRandom) }) else {
            Issue.record("the answer did not finish the pairing"); return
        }
        #expect(outcome == .accepted(hostKey: client.code.hostKey))
    }

    /// What the controller remembers is bounded: an answer to an attempt nine retries old
    /// (4.5 s) is dropped, not trusted.
    @Test func anAnswerToAForgottenAttemptIsDropped() throws {
        var (host, client, hostRandom, clientRandom) = PairingWireTests.pair(name: "slow phone")
        var now = Instant.zero + .seconds(1)
        let m0 = try #require(client.retransmission(now: now, random: &clientRandom))
        guard case let .reply(m1) = m0.withUnsafeBytes({ host.inbound($0, from: Address(), now: now, random: &hostRandom) }) else {
            Issue.record("no message 1"); return
        }
        for _ in 0..<8 {
            now = now + .milliseconds(500)
            _ = client.retransmission(now: now, random: &clientRandom)
        }
        #expect(m1.withUnsafeBytes { client.inbound($0, now: now, random: &clientRandom) } == .drop(.authenticationFailed))
    }
}
