import Crypto
import Foundation

/// Phones that redeemed a pairing link and wait for the person at the computer to let them
/// in (docs/SECURITY.md §9, "a stranger pairs"). Sans-IO: the time is a parameter.
///
/// A pairing link alone is no longer enough: anyone who saw the QR code on a projected
/// screen could use it first. Redeeming the link's secret makes a *request* (`ask`): the
/// phone gets a ticket (128 random bits, only its digest is kept) to poll with, the person
/// at the computer sees the phone's name, address and a 4-digit code, and accepts or denies
/// it by that code and the request's id (`decide`: terminal or control socket). The phone collects the
/// answer with its ticket (`collect`): an accepted request hands over the device and its
/// credential once, and only then is the device stored. At most `maxPending` requests wait,
/// each for `wait` seconds; an unanswered one expires and stores nothing.
///
/// A decision names the request, not only its code: codes are 4 digits and come round
/// again, so a prompt still on the screen after its request expired must not let in a newer
/// phone that drew the same code. Each request has an id (32 random bits) the prompt shows
/// with the code (`reference`, `4821-1a2b3c4d`); a decision must carry both.
package struct WebPairingConsent: Sendable {
    package static let maxPending = 4
    package static let wait: TimeInterval = 120

    /// What the person at the computer sees.
    package struct Request: Sendable, Equatable {
        package var code: String
        /// This request's own name (8 hex digits), never reused for another.
        package var id: String
        /// The link its phone used (`WebPairingDesk.Opened.link`).
        package var link: String
        package var name: String
        package var address: String
        package var asked: Date
        package var expires: Date

        /// What a prompt shows and a decision names: `CODE-ID`.
        package var reference: String { "\(code)-\(id)" }

        /// `CODE-ID` → its two parts; nil for anything else (a bare code included).
        package static func parse(reference: String) -> (code: String, id: String)? {
            let parts = reference.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber),
                  parts[1].count == 8, parts[1].allSatisfy(\.isHexDigit) else { return nil }
            return (String(parts[0]), parts[1].lowercased())
        }
    }

    /// What a phone's poll learns.
    package enum Answer: Sendable, Equatable {
        /// Still waiting for the person at the computer (the code the computer shows).
        case waiting(code: String)
        /// Let in: the device to store and the credential to hand over, once.
        case accepted(WebPairing)
        case denied
        /// No such ticket: never issued, expired, or already answered.
        case unknown
    }

    /// What the person at the computer decided, for the host to announce.
    package enum Decision: Sendable, Equatable {
        case accepted(Request)
        case denied(Request)
    }

    package enum AskError: Error, Sendable, Equatable, CustomStringConvertible {
        case full
        package var description: String {
            "\(WebPairingConsent.maxPending) phones are already waiting for the computer to answer; try again in a minute"
        }
    }

    private enum State: Sendable, Equatable { case pending, accepted, denied }

    private struct Entry: Sendable {
        var ticketDigest: [UInt8]
        var request: Request
        var pairing: WebPairing
        var state: State
    }

    private var entries: [Entry] = []

    package init() {}

    /// The requests waiting for an answer, oldest first; with `link`, only those made with that link.
    package func pending(now: Date, link: String? = nil) -> [Request] {
        entries.filter { $0.state == .pending && now < $0.request.expires && (link == nil || $0.request.link == link) }
            .map(\.request)
    }

    /// When the next request expires (a timer), nil if none.
    package func nextDeadline(now: Date) -> Date? { entries.map(\.request.expires).filter { now < $0 }.min() }

    /// A redeemed link becomes a request: the phone's ticket and what the computer shows.
    package mutating func ask(_ pairing: WebPairing, address: String, now: Date,
                              using rng: inout some RandomNumberGenerator) throws(AskError) -> (ticket: String, request: Request) {
        _ = expire(now: now)
        guard entries.count < Self.maxPending else { throw .full }
        var code: String
        repeat { code = String(format: "%04d", Int.random(in: 0...9999, using: &rng)) } while entries.contains { $0.request.code == code }
        let ticket = WebPairingDesk.randomBytes(16, using: &rng)
        let id = Hex.encode(WebPairingDesk.randomBytes(4, using: &rng))
        let request = Request(code: code, id: id, link: pairing.link, name: pairing.device.name, address: address,
                              asked: now, expires: now + Self.wait)
        entries.append(Entry(ticketDigest: Array(SHA256.hash(data: ticket)), request: request, pairing: pairing, state: .pending))
        return (Base64URL.encode(ticket), request)
    }

    /// The person at the computer answers the request with this code and id (nil: no such
    /// pending request — also when the code now belongs to a newer request).
    package mutating func decide(code: String, id: String, accept: Bool, now: Date) -> Decision? {
        _ = expire(now: now)
        guard let i = entries.firstIndex(where: { $0.request.code == code && $0.request.id == id && $0.state == .pending })
        else { return nil }
        entries[i].state = accept ? .accepted : .denied
        return accept ? .accepted(entries[i].request) : .denied(entries[i].request)
    }

    /// The phone asks with its ticket; an answered request is handed over once and forgotten.
    package mutating func collect(ticket: String, now: Date) -> Answer {
        _ = expire(now: now)
        guard let bytes = Base64URL.decode(ticket) else { return .unknown }
        let digest = Array(SHA256.hash(data: bytes))
        var found: Int?
        for (i, e) in entries.enumerated() where ConstantTime.equal(e.ticketDigest, digest) { found = i }
        guard let i = found else { return .unknown }
        switch entries[i].state {
        case .pending: return .waiting(code: entries[i].request.code)
        case .accepted: return .accepted(entries.remove(at: i).pairing)
        case .denied: entries.remove(at: i); return .denied
        }
    }

    /// Forgets requests past their time (answered or not); returns the unanswered ones.
    package mutating func expire(now: Date) -> [Request] {
        let gone = entries.filter { now >= $0.request.expires }
        entries.removeAll { now >= $0.request.expires }
        return gone.filter { $0.state == .pending }.map(\.request)
    }
}
