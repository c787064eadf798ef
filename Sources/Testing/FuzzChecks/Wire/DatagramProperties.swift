import RemotionProtocol

/// What the datagram fuzz target asserts for any input bytes (docs/FUZZING.md):
///
/// 1. Decoding never traps (anything else is a typed `WireError`).
/// 2. `DatagramHeader.read` accepts exactly 8 bytes and re-writes them identically.
/// 3. `PlainDatagram.decode` succeeds iff the header is a plain header and the
///    rest decodes as one `Message`; what decodes re-encodes to the same bytes and
///    decodes again to an equal value (the encoding is canonical).
/// 4. `MessageCodec.decode` on the bytes as a bare message body: the same.
package enum DatagramProperties {
    package static func check(_ bytes: UnsafeRawBufferPointer) -> PropertyViolation? {
        func fail(_ what: String) -> PropertyViolation { PropertyViolation(what, input: bytes) }

        // 2. The header on its own.
        var reader = ByteReader(bytes)
        let header = try? DatagramHeader.read(from: &reader)
        if let header {
            guard reader.offset == datagramHeaderSize else { return fail("header read consumed \(reader.offset) bytes") }
            var w = ByteWriter()
            header.write(to: &w)
            guard w.bytes.elementsEqual(bytes.prefix(datagramHeaderSize)) else { return fail("header re-encodes differently") }
        }

        // The body after a valid header, decoded as a message on its own.
        var bodyMessage: Message?
        var bodyError: WireError?
        if header != nil {
            var body = reader
            do { bodyMessage = try MessageCodec.decode(from: &body) } catch { bodyError = error }
        }

        // 3. The whole plain datagram.
        do {
            let datagram = try PlainDatagram.decode(bytes)
            guard let header, header.kind == .plain else { return fail("decoded a plain datagram without a plain header") }
            guard header.session == datagram.session else { return fail("session differs from the header's") }
            guard bodyMessage == datagram.message else { return fail("message differs from the body decoded alone") }
            let encoded = datagram.encode()
            guard encoded.elementsEqual(bytes) else { return fail("decoded datagram re-encodes to different bytes") }
            guard (try? PlainDatagram.decode(encoded)) == datagram else { return fail("re-encoded datagram decodes differently") }
        } catch {
            if let header, header.kind == .plain, bodyError == nil {
                return fail("plain datagram rejected (\(error)) although header and body decode")
            }
        }

        // 4. The bytes as a bare message body.
        var r = ByteReader(bytes)
        if let message = try? MessageCodec.decode(from: &r) {
            guard r.remaining == 0 else { return fail("message decode left \(r.remaining) bytes") }
            let encoded = MessageCodec.encode(message)
            guard encoded.elementsEqual(bytes) else { return fail("decoded message re-encodes to different bytes") }
            guard (try? MessageCodec.decode(encoded)) == message else { return fail("re-encoded message decodes differently") }
        }
        return nil
    }

    package static func check(_ bytes: [UInt8]) -> PropertyViolation? {
        bytes.withUnsafeBytes { check($0) }
    }

    /// For the fuzz executable: traps (so libFuzzer keeps the input) on a violation.
    package static func assertHold(_ bytes: UnsafeRawBufferPointer) {
        PropertyViolation.trapIfAny(check(bytes))
    }
}
