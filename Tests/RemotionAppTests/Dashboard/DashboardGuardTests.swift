import Foundation
import RemotionApp
import RemotionHostLogic
import Testing

/// Only the dashboard's own pages and local programs may use it: Host and Origin must
/// be loopback at the dashboard's port, writes must be JSON (docs/SECURITY.md §5.3).
@Suite struct DashboardGuardTests {
    let guardian = DashboardRequestGuard(port: { 7475 }, token: "t0ken")

    @Test func loopbackHostsAndOriginsAtThePortPass() {
        for host in ["127.0.0.1:7475", "localhost:7475", "LOCALHOST:7475", "[::1]:7475"] {
            #expect(guardian.check(method: .get, host: host, origin: nil, contentType: nil) == .allow, "\(host)")
            #expect(guardian.check(method: .get, host: host, origin: "http://\(host)", contentType: nil) == .allow)
            #expect(guardian.check(method: .post, host: host, origin: "http://127.0.0.1:7475",
                                   contentType: "application/json; charset=utf-8") == .allow)
        }
    }

    @Test func otherHostsAreRefused() {
        for host in ["evil.test:7475", "127.0.0.1", "127.0.0.1:80", "127.0.0.2:7475", "localhost.evil.test:7475",
                     "[::1]", "192.168.1.5:7475", ""] {
            #expect(guardian.check(method: .get, host: host, origin: nil, contentType: nil) == .refuse(.host), "\(host)")
        }
        #expect(guardian.check(method: .get, host: nil, origin: nil, contentType: nil) == .refuse(.host))
    }

    @Test func otherOriginsAreRefused() {
        for origin in ["http://evil.test", "http://127.0.0.2:8000", "http://127.0.0.1:8000", "null",
                       "https://127.0.0.1:7475", "http://127.0.0.1:7475.evil.test", "file://"] {
            #expect(guardian.check(method: .get, host: "127.0.0.1:7475", origin: origin, contentType: nil) == .refuse(.origin),
                    "\(origin)")
        }
    }

    @Test func writesMustBeJSON() {
        for type in [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                     "application/jsonx", "text/json"] as [String?] {
            #expect(guardian.check(method: .post, host: "127.0.0.1:7475", origin: nil, contentType: type)
                    == .refuse(.contentType), "\(type ?? "none")")
        }
        #expect(DashboardRequestGuard.Refusal.contentType.status == .unsupportedMediaType)
        #expect(DashboardRequestGuard.Refusal.origin.status == .forbidden)
        #expect(DashboardRequestGuard.Refusal.host.status == .forbidden)
    }
}

/// Any local user could pair a phone or rewrite the settings through the
/// dashboard (loopback, right Host and Origin, JSON). Writes and the WebSocket now need the
/// start's token, which only the host's user can read (its address file, 0600).
@Suite(.timeLimit(.minutes(1))) struct DashboardTokenTests {
    @Test func writesAndTheSocketNeedTheTokenReadsDoNot() async throws {
        let f = try await Fixture.start()
        f.publisher.publish(snapshot(controllers: 1))
        let change = #"{"key":"sensitivity","value":"4"}"#
        for token in [nil, "", "wrong", String(f.server.token.dropLast())] as [String?] {
            for path in ["/api/settings", "/api/web-pairing", "/api/calibrate"] {
                let r = try await RawClient.request(f.port, "POST", path, token: token, body: change)
                #expect(r.status == 403 && r.body.contains("remotion dashboard"), "\(path) with \(token ?? "no token")")
            }
        }
        try await RawClient.withWebSocket(f.port, token: "wrong") { received, _ in
            let messages = try await received.wait(seconds: 0.5) { !$0.isEmpty }
            #expect(messages.isEmpty, "no snapshot for a socket without the token")
        }
        #expect(await f.settings.current() == MappingSettings(), "nothing changed")
        #expect(try await RawClient.request(f.port, "GET", "/api/snapshot").status == 200, "reads stay open to local programs")
        #expect(try await RawClient.request(f.port, "GET", "/").status == 200)
        let own = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: change)
        #expect(own.status == 200)
        #expect(await f.settings.current().sensitivity == 4)
        let refused = f.server.refusals.current
        #expect(refused["no-token"] == 13, "\(refused)")
        await f.server.shutdown()
    }

    @Test func theTokenIsLongRandomAndTravelsInTheFragment() {
        let a = DashboardToken.random(), b = DashboardToken.random()
        #expect(a != b && a.count == 43)
        #expect(DashboardToken.url(port: 7475, token: a) == "http://127.0.0.1:7475/#token=" + a)
        #expect(DashboardRequestGuard.presentedToken(header: nil, uri: "/ws?token=abc&x=1") == "abc")
        #expect(DashboardRequestGuard.presentedToken(header: "h", uri: "/ws?token=abc") == "h")
        #expect(DashboardRequestGuard.presentedToken(header: nil, uri: "/ws") == nil)
    }
}

/// Every route behind the guard, on a real server on loopback: a Host without the
/// dashboard's port, a foreign Origin and a write that is not JSON are refused on each.
@Suite(.timeLimit(.minutes(1))) struct DashboardGuardRouteTests {
    static let paths = ["/", "/assets/dashboard.js", "/api/snapshot", "/api/settings", "/ws"]
    static let change = #"{"key":"sensitivity","value":"4"}"#

    @Test func aHostWithoutTheDashboardsPortIsRefusedOnEveryRoute() async throws {
        let f = try await Fixture.start()
        for path in Self.paths {
            #expect(try await RawClient.request(f.port, "GET", path, host: "localhost").status == 403, "\(path)")
        }
        let write = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: Self.change,
                                                host: "localhost")
        #expect(write.status == 403)
        #expect(await f.settings.current() == MappingSettings())
        #expect(f.server.refusals.current == ["bad-host": 6])
        await f.server.shutdown()
    }

    @Test func foreignOriginsAndNonJSONWritesAreRefusedOnEveryRoute() async throws {
        let f = try await Fixture.start()
        for path in Self.paths {
            let r = try await RawClient.request(f.port, "GET", path, headers: ["Origin: http://127.0.0.2:8000"])
            #expect(r.status == 403, "\(path)")
        }
        for type in ["text/plain", "application/x-www-form-urlencoded"] {
            let r = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: Self.change,
                                                contentType: type)
            #expect(r.status == 415, "\(type)")
        }
        #expect(try await RawClient.request(f.port, "GET", "/").status == 200)
        let own = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: Self.change,
                                              headers: ["Origin: http://127.0.0.1:\(f.port)"])
        #expect(own.status == 200)
        #expect(await f.settings.current().sensitivity == 4, "only the JSON request from the dashboard's origin applied")
        #expect(f.server.refusals.current == ["bad-origin": 5, "not-json": 2])
        await f.server.shutdown()
    }
}

/// A real server: what a browser on another origin would send.
@Suite(.timeLimit(.minutes(1))) struct DashboardCrossOriginTests {
    @Test func crossOriginWritesAndSocketsAreRefusedAndNothingChanges() async throws {
        let f = try await Fixture.start()
        f.publisher.publish(snapshot(controllers: 1))
        let change = #"{"key":"sensitivity","value":"4"}"#
        // fetch(..., {mode: "no-cors", body: text}) from another site: text/plain, with an Origin.
        let plain = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: change, contentType: "text/plain",
                                                headers: ["Origin: http://127.0.0.2:8000"])
        #expect(plain.status == 403)
        // The same without an Origin (a local program): still not JSON.
        let plainLocal = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: change, contentType: "text/plain")
        #expect(plainLocal.status == 415)
        // <form enctype="text/plain" method="post">, its body made to look like JSON.
        let form = try await RawClient.request(f.port, "POST", "/api/settings",
                                               body: #"{"key":"sensitivity","value":"4","x":"="}"#,
                                               contentType: "text/plain", headers: ["Origin: null"])
        #expect(form.status == 403)
        // DNS rebinding: the attacker's name resolves to 127.0.0.1.
        let rebound = try await RawClient.request(f.port, "GET", "/api/snapshot", host: "rebind.evil.test:\(f.port)")
        #expect(rebound.status == 403 && !rebound.body.contains("test-host"))
        // A WebSocket from another origin is not upgraded and reads nothing.
        try await RawClient.withWebSocket(f.port, token: f.server.token, origin: "http://127.0.0.2:8000") { received, _ in
            let messages = try await received.wait(seconds: 0.5) { !$0.isEmpty }
            #expect(messages.isEmpty)
        }
        #expect(await f.settings.current() == MappingSettings(), "no request changed the settings")
        let counted = try await RawClient.request(f.port, "GET", "/api/snapshot")
        let refused = try JSONDecoder().decode(HostSnapshot.self, from: Data(counted.body.utf8)).dashboardRefusals
        #expect(refused == ["bad-origin": 3, "not-json": 1, "bad-host": 1])
        // The page's own origin still works.
        let own = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: change,
                                              headers: ["Origin: http://127.0.0.1:\(f.port)"])
        #expect(own.status == 200)
        await f.server.shutdown()
    }
}
