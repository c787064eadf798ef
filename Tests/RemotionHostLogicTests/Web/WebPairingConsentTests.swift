import Foundation
import RemotionHostLogic
import RemotionProtocol
import Testing

/// Issue 25 item 1: a pairing link admitted anyone who used it first. Now the phone waits
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
        #expect(consent.decide(code: "nope", accept: true, now: t0 + 2) == nil)
        #expect(consent.decide(code: request.code, accept: true, now: t0 + 2) == .accepted(request))
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
        #expect(consent.decide(code: r1.code, accept: false, now: t0 + 1) == .denied(r1))
        #expect(consent.decide(code: r1.code, accept: true, now: t0 + 2) == nil, "an answer is final")
        #expect(consent.collect(ticket: refused, now: t0 + 2) == .denied)
        #expect(consent.nextDeadline(now: t0 + 2) == t0 + WebPairingConsent.wait)
        #expect(consent.expire(now: t0 + WebPairingConsent.wait) == [r2])
        #expect(consent.collect(ticket: late, now: t0 + WebPairingConsent.wait) == .unknown)
        #expect(consent.decide(code: r2.code, accept: true, now: t0 + WebPairingConsent.wait) == nil, "too late to accept")
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
}
