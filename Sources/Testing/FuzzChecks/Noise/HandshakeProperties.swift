import RemotionProtocol

/// What the handshake fuzz target asserts for any input bytes (docs/FUZZING.md).
/// Every input goes through all three paths; each must reject foreign kinds.
///
/// Handshake datagrams (kinds 0x02/0x03):
/// - `HandshakeDatagram.decode` never traps; what decodes re-encodes to the same
///   fields (everything but the macs), and `verifyMac1` agrees with the re-computed mac1.
/// - The decoded Noise message goes to the reader of that step (the responder for
///   messages 0 and 2, the initiator for 1) of an IK, XX or XXpsk3 handshake with
///   fixed keys. If `readMessage` fails, the reader's state is unchanged: same
///   message index, hash and remote keys, and the genuine message still reads to
///   the genuine payload and hash. If it succeeds, the index advanced by one.
/// Cookie replies (0x04): `CookieJar.receive` fails without touching the stored
///   cookie, or succeeds with a 16-byte cookie whose re-sealed reply is the input.
/// Transport datagrams (0x05): `TransportReceiver.open` fails without moving the
///   replay window (and leaves the output empty), or succeeds for a counter that
///   was new, after which the window holds it, the same datagram is rejected as a
///   replay, and re-sealing the plaintext gives the input back.
package enum HandshakeProperties {
    package static func check(_ bytes: [UInt8], fixture f: HandshakeFixture = .shared) -> PropertyViolation? {
        checkHandshake(bytes, f) ?? checkCookieReply(bytes, f) ?? checkTransport(bytes, f)
    }

    package static func assertHold(_ bytes: [UInt8]) {
        PropertyViolation.trapIfAny(check(bytes))
    }

    static func checkHandshake(_ bytes: [UInt8], _ f: HandshakeFixture) -> PropertyViolation? {
        func fail(_ what: String) -> PropertyViolation { PropertyViolation(what, input: bytes) }
        let macsValid = DoSMacs.verifyMac1(bytes, mac1Key: f.mac1Key)
        guard let d = try? HandshakeDatagram.decode(bytes) else { return nil }
        let macStart = bytes.count - 2 * HandshakeDatagram.macLength
        let encoded = d.encode(mac1Key: f.mac1Key, cookie: nil)
        guard encoded.count == bytes.count, encoded[..<macStart] == bytes[..<macStart] else {
            return fail("handshake datagram re-encodes to different fields")
        }
        let mac1Matches = encoded[macStart..<(macStart + 16)] == bytes[macStart..<(macStart + 16)]
        guard mac1Matches == macsValid else { return fail("verifyMac1 disagrees with the re-computed mac1") }
        guard (try? HandshakeDatagram.mac1(of: bytes)) == Array(bytes[macStart..<(macStart + 16)]) else {
            return fail("mac1(of:) returns the wrong bytes")
        }

        guard let step = f.step(pattern: d.pattern, number: d.messageNumber) else {
            return fail("decoded a message number the pattern does not have")
        }
        var reader = step.readerBefore
        let before = step.readerBefore
        do {
            let payload = try reader.readMessage(d.noiseMessage)
            guard reader.nextMessageIndex == Int(d.messageNumber) + 1 else { return fail("read did not advance the state") }
            if d.noiseMessage == step.noiseMessage {
                guard payload == step.payload, reader.handshakeHash == step.hashAfter else {
                    return fail("the genuine message read to a different payload or hash")
                }
            }
            if d.pattern == .ik, d.messageNumber == 0 {
                // The host splits off the TAI64N timestamp next: must not trap either.
                if let (stamp, _) = try? InitiationReplayGuard.splitPayload(payload),
                   (try? TAI64N(bytes: stamp.bytes)) != stamp {
                    return fail("TAI64N does not round-trip")
                }
            }
        } catch {
            guard reader.nextMessageIndex == before.nextMessageIndex, reader.handshakeHash == before.handshakeHash,
                  reader.remoteStatic == before.remoteStatic, reader.remoteEphemeral == before.remoteEphemeral else {
                return fail("a failed readMessage (\(error)) changed the handshake state")
            }
            do {
                let payload = try reader.readMessage(step.noiseMessage)
                guard payload == step.payload, reader.handshakeHash == step.hashAfter else {
                    return fail("after a failed read the genuine message reads differently")
                }
            } catch {
                return fail("after a failed read the genuine message no longer reads: \(error)")
            }
        }
        return nil
    }

    static func checkCookieReply(_ bytes: [UInt8], _ f: HandshakeFixture) -> PropertyViolation? {
        func fail(_ what: String) -> PropertyViolation { PropertyViolation(what, input: bytes) }
        var jar = f.cookieJar
        let now = f.cookieTime + .seconds(1)
        do {
            try jar.receive(reply: bytes, sentMac1: f.sentMac1, now: now)
            guard let cookie = jar.cookie, cookie.count == 16, jar.receivedAt == now,
                  jar.currentCookie(now: now) == cookie else {
                return fail("accepted cookie reply stored no usable 16-byte cookie")
            }
            let (receiver, opened) = try CookieReply.open(bytes, cookieKey: jar.cookieKey, answeredMac1: f.sentMac1)
            let resealed = try CookieReply.seal(receiverIndex: receiver, cookie: opened, cookieKey: jar.cookieKey,
                                                answeredMac1: f.sentMac1, nonce: Array(bytes[8..<20]))
            guard resealed == bytes else { return fail("accepted cookie reply does not re-seal to the same bytes") }
        } catch {
            guard jar.cookie == f.cookieJar.cookie, jar.receivedAt == f.cookieJar.receivedAt else {
                return fail("a rejected cookie reply (\(error)) changed the cookie jar")
            }
        }
        return nil
    }

    static func checkTransport(_ bytes: [UInt8], _ f: HandshakeFixture) -> PropertyViolation? {
        func fail(_ what: String) -> PropertyViolation { PropertyViolation(what, input: bytes) }
        var receiver = f.transportReceiver
        var out: [UInt8] = []
        do {
            let counter = try receiver.open(bytes, into: &out)
            guard f.transportReceiver.window.check(counter) else { return fail("accepted counter \(counter) twice") }
            guard !receiver.window.check(counter) else { return fail("accepted counter \(counter) not recorded") }
            var again = receiver
            var scratch: [UInt8] = []
            guard (try? again.open(bytes, into: &scratch)) == nil, again.window == receiver.window else {
                return fail("the same datagram opened twice")
            }
            var resealed = Array(bytes[..<TransportLayout.adLength])
            try bytes.withUnsafeBytes { b in
                try out.withUnsafeBytes { p in
                    try receiver.cipher.seal(nonce: counter, ad: UnsafeRawBufferPointer(rebasing: b[..<TransportLayout.adLength]),
                                             plaintext: p, appendingTo: &resealed)
                }
            }
            guard resealed == bytes else { return fail("opened transport datagram does not re-seal to the same bytes") }
            // The plaintext is a message body; its decoder has its own properties.
            if let v = DatagramProperties.check(out) { return fail("transport plaintext: \(v.property)") }
        } catch {
            guard receiver.window == f.transportReceiver.window else {
                return fail("a rejected transport datagram (\(error)) moved the replay window")
            }
            guard out.isEmpty else { return fail("a rejected transport datagram left plaintext behind") }
        }
        return nil
    }
}
