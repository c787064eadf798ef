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
    /// credentials (docs/SECURITY.md §9).
    package static func withoutCandidates(_ sdp: String) -> String {
        // By bytes: "\r\n" is one Character in Swift, so splitting the String on "\n" would not split it.
        var out: [UInt8] = []
        out.reserveCapacity(sdp.utf8.count)
        for line in sdp.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            if text.hasPrefix("a=candidate:") || text == "a=end-of-candidates" { continue }
            out += line
            out.append(UInt8(ascii: "\n"))
        }
        if out.last == UInt8(ascii: "\n") { out.removeLast() }   // the split's last segment had none after it
        return String(decoding: out, as: UTF8.self)
    }

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
