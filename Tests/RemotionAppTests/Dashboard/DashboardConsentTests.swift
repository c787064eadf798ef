import Foundation
import Hummingbird
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionTestSupport
import Testing

/// The dashboard's pairing card answers the phones waiting to pair and revokes
/// paired devices — through the same guard as every other write (Host, Origin, JSON, this
/// start's token), and on the same request the control socket (`remotion devices`) answers.
@Suite(.timeLimit(.minutes(1))) struct DashboardConsentTests {
    struct Fixture {
        let dir: TemporaryDirectory
        let registry: WebDeviceRegistry
        let keys: KeyStore
        let server: DashboardServer
        let port: Int
        var origin: String { "Origin: http://127.0.0.1:\(port)" }

        static func start(web: Bool = true) async throws -> Fixture {
            let dir = try TemporaryDirectory()
            let data = dir.url.appendingPathComponent("remotion")
            let registry = try WebDeviceRegistry(store: WebCredentialStore(directory: data))
            let keys = KeyStore(directory: data)
            let server = DashboardServer()
            let port = try await server.start(host: "127.0.0.1", port: 0, publisher: SnapshotPublisher(),
                                              settings: InMemorySettingsControl(),
                                              devices: PairedDevices(registry: web ? registry : nil, keys: keys))
            return Fixture(dir: dir, registry: registry, keys: keys, server: server, port: port)
        }

        /// A phone redeems a fresh link (at `now`; by default two seconds ago, longer than
        /// the card's settle): it waits for an answer.
        func ask(_ name: String = "CI phone", now: Date = Date() - 2) throws -> (ticket: String, request: WebPairingConsent.Request) {
            let secret = registry.openPairingLink(now: now).secret
            return try registry.redeem(secret: secret, name: name, address: "192.0.2.7:50312", now: now)
        }

        /// The page's own POST: token, Origin, JSON.
        func post(_ path: String, _ body: String, token: String? = nil, headers: [String]? = nil) async throws -> RawClient.HTTPResponse {
            try await RawClient.request(port, "POST", path, token: token ?? server.token, body: body, headers: headers ?? [origin])
        }

        func stop() async {
            await server.shutdown()
            dir.remove()
        }
    }

    @Test func answersNeedTheTokenAndTheDashboardsOwnOriginAndChangeNothingOtherwise() async throws {
        let f = try await Fixture.start()
        let (ticket, request) = try f.ask()
        let phone = try pairedPhone(f, "Kept phone")
        let writes = [("/api/web-pairing/answer", #"{"request":"\#(request.reference)","accept":true}"#),
                      ("/api/devices/revoke", #"{"phone":"\#(phone.id)"}"#),
                      ("/api/devices/typing", #"{"phone":"\#(phone.id)","typing":false}"#)]
        for (path, body) in writes {
            for token in ["", "wrong", String(f.server.token.dropLast())] {
                let r = try await f.post(path, body, token: token)
                #expect(r.status == 403 && r.body.contains("token"), "\(path) with token '\(token)'")
            }
            let none = try await RawClient.request(f.port, "POST", path, body: body, headers: [f.origin])
            #expect(none.status == 403, "\(path) without a token")
            let foreign = try await f.post(path, body, headers: ["Origin: http://127.0.0.2:8000"])
            #expect(foreign.status == 403 && foreign.body.contains("Origin"), "\(path) from another origin")
            let rebound = try await RawClient.request(f.port, "POST", path, token: f.server.token, body: body,
                                                      host: "rebind.evil.test:\(f.port)")
            #expect(rebound.status == 403, "\(path) under another host name")
            let form = try await RawClient.request(f.port, "POST", path, token: f.server.token, body: body,
                                                   contentType: "text/plain", headers: [f.origin])
            #expect(form.status == 415, "\(path) as text/plain")
        }
        #expect(f.registry.pendingPairings().map(\.reference) == [request.reference], "the phone still waits")
        #expect(try f.registry.collect(ticket: ticket) == .waiting(code: request.code))
        #expect(f.registry.isTrusted(phone.id) && f.registry.mayType(phone.id), "the paired phone kept and may still type")
        #expect(f.server.refusals.current == ["no-token": 12, "bad-origin": 3, "bad-host": 3, "not-json": 3])
        await f.stop()
    }

    @Test func acceptPairsThePhoneOnceAndAnAnsweredRequestCannotBeAnsweredAgain() async throws {
        let f = try await Fixture.start()
        let (ticket, request) = try f.ask()
        let listed = try await RawClient.request(f.port, "GET", "/api/devices")
        let view = try JSONDecoder().decode(DevicesView.self, from: Data(listed.body.utf8))
        #expect(view.web && view.waiting.count == 1 && view.phones.isEmpty)
        #expect(view.waiting.first?.request == request.reference && view.waiting.first?.name == "CI phone"
                && view.waiting.first?.address == "192.0.2.7:50312" && (118...120).contains(view.waiting.first?.seconds ?? 0))

        let accepted = try await f.post("/api/web-pairing/answer", #"{"request":"\#(request.reference)","accept":true}"#)
        #expect(accepted.status == 200 && accepted.body.contains(#""accepted":true"#), "\(accepted.body)")
        // The phone's next poll collects its credential; only now is it stored.
        guard case .accepted(let pairing) = try f.registry.collect(ticket: ticket) else {
            Issue.record("the phone was not let in"); return
        }
        #expect(try f.registry.store.devices().map(\.id) == [pairing.device.id])
        #expect(f.registry.verify(id: pairing.device.id, credential: pairing.credential) != nil)
        // Answered: neither the dashboard nor the control socket can answer it again.
        for accept in [true, false] {
            let again = try await f.post("/api/web-pairing/answer", #"{"request":"\#(request.reference)","accept":\#(accept)}"#)
            #expect(again.status == 404 && again.body.contains("no phone waits"))
        }
        #expect(f.registry.decide(code: request.code, id: request.id, accept: false) == nil)
        #expect(try f.registry.store.devices().count == 1)
        await f.stop()
    }

    /// The card's buttons wait a second after it appears; the host refuses an answer that
    /// comes sooner than that after the phone asked: no person saw that card for a second.
    /// The rule on given times (the route's `answer(_:now:)`: no test's outcome may depend on
    /// how long a loaded machine takes to carry a POST), then through HTTP with the guard.
    @Test func anAnswerWithinTheSettleOfTheAskingIsRefusedAndThePhoneStillWaits() async throws {
        let f = try await Fixture.start()
        let asked = Date()
        let (ticket, request) = try f.ask(now: asked)
        let routes = DashboardDeviceRoutes(devices: PairedDevices(registry: f.registry, keys: f.keys))
        for (after, accept) in [(0.0, true), (0.5, false), (0.999, true)] {
            let early = routes.answer(Data(#"{"request":"\#(request.reference)","accept":\#(accept)}"#.utf8),
                                      now: asked + after)
            #expect(early.status == .conflict, "answered \(after) s after the asking: \(early.status)")
        }
        #expect(f.registry.pendingPairings().map(\.reference) == [request.reference], "the phone still waits")
        #expect(try f.registry.collect(ticket: ticket) == .waiting(code: request.code))
        // Through HTTP: a phone whose asking the host dates a minute ahead of the answer (an
        // answer can only come later than the asking, never sooner, however slow the POST).
        let (_, ahead) = try f.ask("Ahead phone", now: Date() + 60)
        let refused = try await f.post("/api/web-pairing/answer", #"{"request":"\#(ahead.reference)","accept":true}"#)
        #expect(refused.status == 409 && refused.body.contains("check its name and code"), "\(refused.status) \(refused.body)")
        // A phone that asked two seconds before the answer: the answer counts.
        let (ticket2, later) = try f.ask("Later phone", now: Date() - 2)
        let ok = try await f.post("/api/web-pairing/answer", #"{"request":"\#(later.reference)","accept":true}"#)
        #expect(ok.status == 200, "\(ok.body)")
        if case .accepted = try f.registry.collect(ticket: ticket2) {} else { Issue.record("the later phone was not let in") }
        await f.stop()
    }

    @Test func denyLeavesThePhoneUnpaired() async throws {
        let f = try await Fixture.start()
        let (ticket, request) = try f.ask()
        let denied = try await f.post("/api/web-pairing/answer", #"{"request":"\#(request.reference)","accept":false}"#)
        #expect(denied.status == 200 && denied.body.contains(#""accepted":false"#))
        #expect(try f.registry.collect(ticket: ticket) == .denied)
        #expect(try f.registry.store.devices().isEmpty, "nothing stored")
        #expect(f.registry.pendingPairings().isEmpty)
        await f.stop()
    }

    @Test func theControlSocketsAnswerWinsOverALaterDashboardAnswer() async throws {
        let f = try await Fixture.start()
        let (ticket, request) = try f.ask()
        // `remotion devices --deny CODE-ID` (web-pair-decide) answers first.
        #expect(f.registry.decide(code: request.code, id: request.id, accept: false) != nil)
        let late = try await f.post("/api/web-pairing/answer", #"{"request":"\#(request.reference)","accept":true}"#)
        #expect(late.status == 404)
        #expect(try f.registry.collect(ticket: ticket) == .denied, "the first answer stands")
        #expect(try f.registry.store.devices().isEmpty)
        await f.stop()
    }

    @Test func anExpiredRequestOrABareCodeCannotBeAnswered() async throws {
        let f = try await Fixture.start()
        let (ticket, old) = try f.ask("Old phone", now: Date().addingTimeInterval(-(WebPairingConsent.wait + 1)))
        let expired = try await f.post("/api/web-pairing/answer", #"{"request":"\#(old.reference)","accept":true}"#)
        #expect(expired.status == 404)
        #expect(try f.registry.collect(ticket: ticket) == .unknown)
        let (_, fresh) = try f.ask()
        for body in [#"{"request":"\#(fresh.code)","accept":true}"#, #"{"request":"\#(fresh.reference)"}"#,
                     #"{"request":"\#(fresh.reference)","accept":"yes"}"#, "[]", "not json", ""] {
            let r = try await f.post("/api/web-pairing/answer", body)
            #expect(r.status == 400, "\(body)")
        }
        #expect(f.registry.pendingPairings().map(\.reference) == [fresh.reference], "malformed answers change nothing")
        #expect(try f.registry.store.devices().isEmpty)
        await f.stop()
    }

    @Test func revokeAndTheTypingSwitchReachTheRunningHost() async throws {
        let f = try await Fixture.start()
        let phone = try pairedPhone(f, "Old phone")
        let other = try pairedPhone(f, phone.id)   // named like the first one's id: never revoked by it
        let controller = try f.keys.addPaired(name: "pad", publicKey: [UInt8](repeating: 7, count: 32))
        let view = try JSONDecoder().decode(DevicesView.self, from: Data(try await RawClient.request(f.port, "GET", "/api/devices").body.utf8))
        #expect(view.phones.map(\.id) == [phone.id, other.id] && view.phones.allSatisfy(\.typing))
        #expect(view.controllers.map(\.fingerprint) == [controller.fingerprint])

        let typing = try await f.post("/api/devices/typing", #"{"phone":"\#(phone.id)","typing":false}"#)
        #expect(typing.status == 200 && typing.body.contains(#""typing":false"#))
        #expect(!f.registry.mayType(phone.id) && f.registry.mayType(other.id), "the running host knows at once")

        let revoked = try await f.post("/api/devices/revoke", #"{"phone":"\#(phone.id)"}"#)
        #expect(revoked.status == 200)
        // What live sessions check every 100 ms: the device is no longer trusted.
        #expect(!f.registry.isTrusted(phone.id) && f.registry.isTrusted(other.id))
        #expect(try f.registry.store.devices().map(\.id) == [other.id])
        #expect(try await f.post("/api/devices/revoke", #"{"phone":"\#(phone.id)"}"#).status == 404, "gone already")

        // UDP controllers: exact fingerprints only (a prefix or a name is not enough here).
        let prefix = String(controller.fingerprint.prefix(9))
        for what in [prefix, "pad"] {
            #expect(try await f.post("/api/devices/revoke", #"{"controller":"\#(what)"}"#).status == 404)
        }
        #expect(try f.keys.pairedControllers().count == 1)
        let gone = try await f.post("/api/devices/revoke", #"{"controller":"\#(controller.fingerprint)"}"#)
        #expect(gone.status == 200 && gone.body.contains("pad"))
        // The host's framing reloads `paired.json` every 250 ms and closes untrusted sessions.
        #expect(try f.keys.trustedKeys().isEmpty)
        for body in [#"{"phone":"\#(other.id)","controller":"\#(controller.fingerprint)"}"#, "{}", #"{"phone":3}"#] {
            #expect(try await f.post("/api/devices/revoke", body).status == 400, "\(body)")
        }
        #expect(f.registry.isTrusted(other.id))
        await f.stop()
    }

    @Test func aHostWithoutAWebControllerHasNoPhonesToAnswer() async throws {
        let f = try await Fixture.start(web: false)
        let view = try JSONDecoder().decode(DevicesView.self, from: Data(try await RawClient.request(f.port, "GET", "/api/devices").body.utf8))
        #expect(!view.web && view.waiting.isEmpty)
        let r = try await f.post("/api/web-pairing/answer", #"{"request":"4821-1a2b3c4d","accept":true}"#)
        #expect(r.status == 404 && r.body.contains("--no-web"))
        await f.stop()
    }

    /// A phone paired earlier (stored, and the registry re-read as the host's watch would).
    func pairedPhone(_ f: Fixture, _ name: String) throws -> WebDevice {
        var desk = WebPairingDesk()
        let pairing = try desk.redeem(secret: desk.open(now: Date()), name: name, now: Date())
        try f.registry.store.add(pairing.device)
        try f.registry.reload(force: true)
        return pairing.device
    }
}
