import Foundation
import RemotionHostLogic
import Testing
import RemotionProtocol

/// The data-channel signalling request (WebRTCOffer): a real Chromium offer is accepted
/// with its fingerprint; everything else is refused by reason; 20,000 mutated requests
/// never trap and never yield a fingerprint that is not 32 bytes.
@Suite struct WebRTCOfferTests {
    /// An offer as headless Chromium 156 wrote it (two data channels, one host candidate).
    static let chromeOffer = [
        "v=0", "o=- 4611731400430051336 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
        "a=extmap-allow-mixed", "a=msid-semantic: WMS",
        "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
        "a=candidate:3442447574 1 udp 2122260223 3c3a6e7e-2a2b-4f9c-9b2a-0f6d2a1e5c11.local 53024 typ host generation 0 network-id 1",
        "a=ice-ufrag:Kx3Q", "a=ice-pwd:zmpO2cIjeKYBvJ1yqFv0qQcA", "a=ice-options:trickle",
        "a=fingerprint:sha-256 36:92:0C:34:71:CA:16:3F:B7:54:AF:89:FD:C6:A8:C7:64:AB:95:27:EE:81:A7:F6:33:3A:93:B7:03:89:0C:8D",
        "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144",
    ].joined(separator: "\r\n") + "\r\n"

    static func body(_ sdp: String, id: String = "0011223344556677", credential: String = "c") -> [UInt8] {
        let object: [String: String] = ["id": id, "credential": credential, "sdp": sdp]
        return Array(try! JSONSerialization.data(withJSONObject: object))
    }

    @Test func chromiumOfferIsAccepted() throws {
        let offer = try WebRTCOffer.parse(Self.body(Self.chromeOffer)).get()
        #expect(offer.fingerprint.count == 32 && offer.fingerprint.first == 0x36 && offer.fingerprint.last == 0x8D)
        #expect(offer.id == "0011223344556677")
        // The page's candidates never reach libnice (where the host sends
        // STUN and which .local names it resolves are not the phone's to choose).
        let candidate = Self.chromeOffer.split(separator: "\r\n").first { $0.hasPrefix("a=candidate:") }!
        #expect(offer.sdp == Self.chromeOffer.replacingOccurrences(of: candidate + "\r\n", with: ""))
        #expect(!offer.sdp.contains("candidate") && offer.sdp.hasSuffix("a=max-message-size:262144\r\n"))
        let trickled = Self.chromeOffer + "a=candidate:1 1 udp 1 203.0.113.9 3478 typ host\r\na=end-of-candidates\r\n"
        #expect(try WebRTCOffer.parse(Self.body(trickled)).get().sdp == offer.sdp)
        #expect(WebRTCOffer.withoutCandidates("v=0\na=candidate:x\nm=y\n") == "v=0\nm=y\n")
        #expect(WebRTCOffer.withoutCandidates("v=0\r\nm=y") == "v=0\r\nm=y")
    }

    /// GStreamer's SDP parser skips whitespace before the type character and
    /// before an attribute's key, so `a= candidate:…` is a candidate to libnice. Seen from
    /// outside before the fix: an offer naming 192.0.2.77:40000 that way drew STUN there.
    /// (The keys below are what gst_sdp_message_new_from_text reported for these lines,
    /// GStreamer 1.22, checked through ctypes.)
    @Test func candidatesAreDroppedByTheKeyGStreamerReads() throws {
        let spoofed = "a= candidate:1 1 udp 2122260223 192.0.2.77 40000 typ host\r\n"
        let offer = try WebRTCOffer.parse(Self.body(Self.chromeOffer + spoofed)).get()
        #expect(!offer.sdp.contains("candidate") && !offer.sdp.contains("192.0.2.77"))
        #expect(offer.sdp == (try WebRTCOffer.parse(Self.body(Self.chromeOffer)).get().sdp))
        // Spellings checkSDP refuses today (tabs, leading whitespace) are dropped here all the same.
        let variants = [
            "a= candidate:0", "a=  candidate:1", "a=\tcandidate:2", " a=candidate:3", "\ta= candidate:4",
            "\ra=candidate:5", "a=candidate :6", "a=CANDIDATE:7", "a=candidate\u{0B}:8", "\u{0C}a=candidate:9",
            "a=end-of-candidates ", " a= end-of-candidates", "a=end-of-candidates\r", "a= candidate:10\r",
            "a=candidate", "a= candidate",
        ]
        for variant in variants {
            for newline in ["\n", "\r\n"] {
                let sdp = ["v=0", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", variant, "a=mid:0"]
                    .joined(separator: newline)
                #expect(WebRTCOffer.withoutCandidates(sdp) == ["v=0", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "a=mid:0"]
                    .joined(separator: newline), "\(variant.debugDescription)")
            }
        }
        // What GStreamer does not read as a candidate stays: another type, no `=` after it,
        // a candidate after a CR inside another attribute's line (its value ends at the CR).
        for kept in ["b= candidate:1", "a =candidate:1", "a=foo\ra=candidate:1", "a=x-candidate:1", "a=ice-options:trickle"] {
            let sdp = "v=0\n" + kept + "\nm=y"
            #expect(WebRTCOffer.withoutCandidates(sdp) == sdp, "\(kept.debugDescription)")
        }
        #expect(WebRTCOffer.attributeKey(Array("  a= \tcandidate :x".utf8)) == Array("candidate ".utf8))
    }

    @Test func refusalsByReason() {
        func problem(_ body: [UInt8]) -> WebRTCOffer.Problem? {
            if case .failure(let p) = WebRTCOffer.parse(body) { return p }
            return nil
        }
        let offer = Self.chromeOffer
        #expect(problem(Array("not json".utf8)) == .notJSON)
        #expect(problem([UInt8](repeating: 0x20, count: WebRTCOffer.maxBody + 1)) == .tooLong)
        #expect(problem(Self.body(offer, credential: "")) == .badCredential)
        #expect(problem(Self.body(offer, id: String(repeating: "a", count: 65))) == .badCredential)
        #expect(problem(Self.body("hello")) == .notSDP)
        #expect(problem(Self.body(offer.replacingOccurrences(of: "s=-", with: "s=\u{7}"))) == .notSDP)
        #expect(problem(Self.body(offer + "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n")) == .otherMedia)
        #expect(problem(Self.body(offer.replacingOccurrences(of: "webrtc-datachannel", with: "x"))) == .noDataChannel)
        let noFingerprint = offer.split(separator: "\r\n").filter { !$0.hasPrefix("a=fingerprint") }.joined(separator: "\r\n")
        #expect(problem(Self.body(noFingerprint)) == .noFingerprint)
        #expect(problem(Self.body(offer.replacingOccurrences(of: ":8D\r\n", with: ":8\r\n"))) == .noFingerprint)
        let second = "a=fingerprint:sha-256 " + Array(repeating: "00", count: 32).joined(separator: ":") + "\r\n"
        #expect(problem(Self.body(offer + second)) == .mixedFingerprints)
        #expect(problem(Self.body(offer.replacingOccurrences(of: "a=mid:0", with: String(repeating: "a", count: 1100)))) == .notSDP)
    }

    @Test func mutatedRequestsNeverTrap() {
        var random = SecureRandom()
        let seed = Self.body(Self.chromeOffer)
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let i = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: i)
                default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: i)
                }
            }
            if case .success(let offer) = WebRTCOffer.parse(bytes) {
                #expect(offer.fingerprint.count == 32 && offer.sdp.utf8.count <= WebRTCOffer.maxBody)
            }
        }
    }
}
