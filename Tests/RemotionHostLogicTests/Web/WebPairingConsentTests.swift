import Foundation
import RemotionHostLogic
import RemotionProtocol
import Testing

/// A pairing link admitted anyone who used it first. Now the phone waits
/// for the person at the computer (virtual time: `now` is a parameter).
@Suite struct WebPairingConsentTests {
    var rng = SplitMix64(seed: 25)
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    mutating func pairing(_ name: String) throws -> WebPairing {
        var desk = WebPairingDesk()
        let secret = desk.open(now: t0, using: &rng)
        return try desk.redeem(secret: secret, name: name, now: t0, using: &rng)
    }

    @Test mutating func aPhoneGetsItsCredentialOnlyAfterTheComputerAccepts() throws {
        var consent = WebPairingConsent()
        let p = try pairing("Ana's phone")
        let (ticket, request) = try consent.ask(p, address: "192.168.1.20", now: t0, using: &rng)
        #expect(request.name == "Ana's phone" && request.address == "192.168.1.20" && request.code.count == 4)
        #expect(consent.pending(now: t0) == [request])
        #expect(consent.collect(ticket: ticket, now: t0 + 1) == .waiting(code: request.code))
        #expect(consent.decide(code: "nope", id: request.id, accept: true, now: t0 + 2) == nil)
        #expect(consent.decide(code: request.code, id: "00000000", accept: true, now: t0 + 2) == nil, "the code alone is not enough")
        #expect(consent.decide(code: request.code, id: request.id, accept: true, now: t0 + 2) == .accepted(request))
        #expect(consent.pending(now: t0 + 2).isEmpty)
        #expect(consent.collect(ticket: "forged-ticket-AAAAAAAAAA", now: t0 + 3) == .unknown)
        #expect(consent.collect(ticket: ticket, now: t0 + 3) == .accepted(p))
        #expect(consent.collect(ticket: ticket, now: t0 + 4) == .unknown, "handed over once")
    }

    @Test mutating func aRefusedOrUnansweredPhoneGetsNothing() throws {
        var consent = WebPairingConsent()
        let (refused, r1) = try consent.ask(try pairing("stranger"), address: "10.0.0.9", now: t0, using: &rng)
        let (late, r2) = try consent.ask(try pairing("late"), address: "10.0.0.8", now: t0, using: &rng)
        #expect(r1.code != r2.code)
        #expect(consent.decide(code: r1.code, id: r1.id, accept: false, now: t0 + 1) == .denied(r1))
        #expect(consent.decide(code: r1.code, id: r1.id, accept: true, now: t0 + 2) == nil, "an answer is final")
        #expect(consent.collect(ticket: refused, now: t0 + 2) == .denied)
        #expect(consent.nextDeadline(now: t0 + 2) == t0 + WebPairingConsent.wait)
        #expect(consent.expire(now: t0 + WebPairingConsent.wait) == [r2])
        #expect(consent.collect(ticket: late, now: t0 + WebPairingConsent.wait) == .unknown)
        #expect(consent.decide(code: r2.code, id: r2.id, accept: true, now: t0 + WebPairingConsent.wait) == nil, "too late to accept")
    }

    @Test mutating func atMostFourWaitAndTheirTimeFreesASlot() throws {
        var consent = WebPairingConsent()
        for i in 0..<WebPairingConsent.maxPending {
            _ = try consent.ask(try pairing("p\(i)"), address: "a", now: t0 + Double(i), using: &rng)
        }
        #expect(throws: WebPairingConsent.AskError.full) {
            _ = try consent.ask(try pairing("one too many"), address: "a", now: t0 + 10, using: &rng)
        }
        // The first one's time is up: a slot is free again.
        _ = try consent.ask(try pairing("next"), address: "a", now: t0 + WebPairingConsent.wait, using: &rng)
        #expect(consent.pending(now: t0 + WebPairingConsent.wait).count == WebPairingConsent.maxPending)
    }

    /// A decision bound to the 4-digit code alone let a prompt still on the
    /// screen after its request expired let in a newer phone that drew the same code (on
    /// main, `decide(code:)` with the old prompt's code accepted the new request). Now the
    /// decision names the request's id too.
    @Test mutating func aStalePromptCannotLetInANewerRequestThatDrewTheSameCode() throws {
        var consent = WebPairingConsent()
        var drawn = Scripted(rest: SplitMix64(seed: 36))
        drawn.queue = [0x1234_5678_9ABC_DEF0]   // the code's draw
        let (_, old) = try consent.ask(try pairing("old"), address: "10.0.0.1", now: t0, using: &drawn)
        let later = t0 + WebPairingConsent.wait + 1
        #expect(consent.pending(now: later).isEmpty, "the old request expired")
        drawn.queue = [0x1234_5678_9ABC_DEF0]
        let (ticket, new) = try consent.ask(try pairing("stranger"), address: "10.0.0.66", now: later, using: &drawn)
        #expect(new.code == old.code && new.id != old.id && new.reference != old.reference)
        #expect(consent.decide(code: old.code, id: old.id, accept: true, now: later + 1) == nil)
        #expect(consent.collect(ticket: ticket, now: later + 1) == .waiting(code: new.code))
        #expect(consent.pending(now: later + 1) == [new])
        #expect(consent.decide(code: new.code, id: new.id, accept: true, now: later + 2) == .accepted(new))
    }

    @Test func referencesParseOnlyAsCodeDashID() {
        func parsed(_ text: String) -> String? { WebPairingConsent.Request.parse(reference: text).map { "\($0.code)|\($0.id)" } }
        #expect(parsed("4821-1a2b3c4d") == "4821|1a2b3c4d")
        #expect(parsed("4821-1A2B3C4D") == "4821|1a2b3c4d")
        for bad in ["4821", "4821-", "-1a2b3c4d", "482-1a2b3c4d", "4821-1a2b3c4", "4821-1a2b3c4g", "4821-1a2b-3c4d", "٤٨٢١-1a2b3c4d"] {
            #expect(parsed(bad) == nil, "\(bad)")
        }
    }

    /// `remotion pair --web` answers the phone that used its own link: each request carries
    /// the link its phone redeemed, and the waiting list can be asked for one link's requests.
    @Test mutating func eachRequestNamesTheLinkItsPhoneUsed() throws {
        var desk = WebPairingDesk()
        let mine = desk.openLink(now: t0, using: &rng), other = desk.openLink(now: t0, using: &rng)
        #expect(mine.link != other.link && mine.link.count == 16)
        var consent = WebPairingConsent()
        let (_, first) = try consent.ask(try desk.redeem(secret: other.secret, name: "first", now: t0 + 1, using: &rng),
                                         address: "10.0.0.2", now: t0 + 1, using: &rng)
        let (_, own) = try consent.ask(try desk.redeem(secret: mine.secret, name: "own", now: t0 + 2, using: &rng),
                                       address: "10.0.0.3", now: t0 + 2, using: &rng)
        #expect(first.link == other.link && own.link == mine.link)
        #expect(consent.pending(now: t0 + 3, link: mine.link) == [own])
        #expect(consent.pending(now: t0 + 3) == [first, own])
    }
}

/// Draws `queue` first, then from `rest`.
struct Scripted<Rest: RandomNumberGenerator>: RandomNumberGenerator {
    var queue: [UInt64] = []
    var rest: Rest
    init(rest: Rest) { self.rest = rest }
    mutating func next() -> UInt64 { queue.isEmpty ? rest.next() : queue.removeFirst() }
}
