import Foundation

/// The data-channel signalling request (docs/WEB-CONTROLLER.md, "Transports"):
/// `POST /api/rtc` with `{"id","credential","sdp"}`, the page's offer and its device
/// credential. Checked here before any of it reaches GStreamer: a bounded body, SDP of
/// printable ASCII lines, exactly one media section and it a data channel, and the page's
/// DTLS certificate fingerprint (SHA-256), which the host then pins.
package struct WebRTCOffer: Sendable, Equatable {
    package var id: String
    package var credential: String
    package var sdp: String
    /// SHA-256 of the page's DTLS certificate (32 bytes).
    package var fingerprint: [UInt8]

    package static let maxBody = 16 * 1024
    package static let maxLine = 1024

    package enum Problem: String, Error, Sendable {
        case tooLong = "too-long", notJSON = "not-json", badCredential = "bad-credential"
        case notSDP = "not-sdp", noDataChannel = "no-data-channel", otherMedia = "other-media"
        case noFingerprint = "no-fingerprint", mixedFingerprints = "mixed-fingerprints"
    }

    private struct Wire: Decodable {
        var id: String
        var credential: String
        var sdp: String
    }

    package static func parse(_ body: some Collection<UInt8>) -> Result<WebRTCOffer, Problem> {
        guard body.count <= maxBody else { return .failure(.tooLong) }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(body)) else { return .failure(.notJSON) }
        guard (1...64).contains(wire.id.utf8.count), (1...128).contains(wire.credential.utf8.count) else {
            return .failure(.badCredential)
        }
        return checkSDP(wire.sdp).map {
            WebRTCOffer(id: wire.id, credential: wire.credential, sdp: withoutCandidates(wire.sdp), fingerprint: $0)
        }
    }

    /// The offer without its ICE candidates (`a=candidate:`, `a=end-of-candidates`): a page's
    /// candidates would let a paired phone choose where the host sends STUN (any address and
    /// port) and which `.local` names libnice resolves. ICE completes without them: the
    /// browser checks the host's candidates, and libnice answers those checks (STUN message
    /// integrity with this offer's ufrag/password) and learns the phone's address from them
    /// as a peer-reflexive candidate — as it always did for Safari's unresolved `.local` names.
    /// So the host only ever sends STUN back to an address that proved it holds the offer's
    /// credentials (docs/SECURITY.md §9). A line goes by the key GStreamer's parser will read
    /// from it (`attributeKey`), not by its spelling: `a= candidate:…` is a candidate too.
    package static func withoutCandidates(_ sdp: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(sdp.utf8.count)
        for line in sdp.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if let key = attributeKey(line), isCandidateKey(key) { continue }
            out += line
            out.append(UInt8(ascii: "\n"))
        }
        if out.last == UInt8(ascii: "\n") { out.removeLast() }   // the split's last segment had none after it
        return String(decoding: out, as: UTF8.self)
    }

    /// The key of the `a=` attribute on one line (the bytes between two LFs) as
    /// gst_sdp_message_parse_buffer reads it: it skips ASCII whitespace (CR, tab, vertical
    /// tab, form feed and space included) before the type character, wants `=` right after
    /// it, ends the value at CR, LF or NUL, and the attribute's key is what follows `=`
    /// after more whitespace, up to `:` or the value's end (read_string_del). nil when
    /// GStreamer sees no attribute there.
    package static func attributeKey(_ line: some Collection<UInt8>) -> [UInt8]? {
        var rest = line.drop(while: isSDPSpace)
        guard rest.first == UInt8(ascii: "a") else { return nil }
        rest = rest.dropFirst()
        guard rest.first == UInt8(ascii: "=") else { return nil }
        let value = rest.dropFirst().prefix { $0 != 0x0D && $0 != 0x0A && $0 != 0 }
        return Array(value.drop(while: isSDPSpace).prefix { $0 != UInt8(ascii: ":") })
    }

    /// `candidate` or `end-of-candidates`, also with whitespace after it or in another case
    /// (webrtcbin compares exactly; dropping a near miss costs nothing).
    static func isCandidateKey(_ key: [UInt8]) -> Bool {
        var end = key.endIndex
        while end > key.startIndex, isSDPSpace(key[end - 1]) { end -= 1 }
        let name = String(decoding: key[..<end], as: UTF8.self).lowercased()
        return name == "candidate" || name == "end-of-candidates"
    }

    /// g_ascii_isspace: space, \t, \n, \v, \f, \r.
    static func isSDPSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The fingerprint of a well-formed data-channel-only offer.
    package static func checkSDP(_ sdp: String) -> Result<[UInt8], Problem> {
        let bytes = Array(sdp.utf8)
        guard bytes.count <= maxBody, bytes.starts(with: Array("v=0".utf8)) else { return .failure(.notSDP) }
        // Printable ASCII, CR and LF only; no line longer than maxLine.
        var run = 0
        for b in bytes {
            if b == 0x0A || b == 0x0D { run = 0; continue }
            guard (0x20...0x7E).contains(b) else { return .failure(.notSDP) }
            run += 1
            if run > maxLine { return .failure(.notSDP) }
        }
        let lines = sdp.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        guard lines.allSatisfy({ $0.count >= 2 && $0.dropFirst().first == "=" }) else { return .failure(.notSDP) }
        let media = lines.filter { $0.hasPrefix("m=") }
        guard let first = media.first else { return .failure(.noDataChannel) }
        guard media.count == 1 else { return .failure(.otherMedia) }
        guard first.hasPrefix("m=application "), first.hasSuffix(" webrtc-datachannel") else { return .failure(.noDataChannel) }
        var found: [UInt8]?
        for line in lines where line.lowercased().hasPrefix("a=fingerprint:sha-256 ") {
            guard let value = parseFingerprint(line.dropFirst("a=fingerprint:sha-256 ".count)) else {
                return .failure(.noFingerprint)
            }
            if let found, found != value { return .failure(.mixedFingerprints) }
            found = value
        }
        guard let found else { return .failure(.noFingerprint) }
        return .success(found)
    }

    /// "AB:CD:…" (32 groups) → bytes.
    package static func parseFingerprint(_ text: Substring) -> [UInt8]? {
        let groups = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard groups.count == 32 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for g in groups {
            guard g.count == 2, let v = UInt8(g, radix: 16) else { return nil }
            out.append(v)
        }
        return out
    }
}
