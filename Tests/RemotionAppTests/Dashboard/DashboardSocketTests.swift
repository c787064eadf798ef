import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DashboardSocketTests {
    @Test func sendsTheSnapshotOnConnectAndAfterEachPublish() async throws {
        let f = try await Fixture.start()
        try await RawClient.withWebSocket(f.port, token: f.server.token) { received, _ in
            let first = try await received.wait { $0.count >= 1 }
            #expect(try decode(#require(first.first)).type == "snapshot")
            f.publisher.publish(snapshot(controllers: 1, roll: 0.42))
            let after = try await received.wait { msgs in msgs.contains { (try? decode($0))?.snapshot?.controllers.count == 1 } }
            let message = try #require(after.compactMap { try? decode($0) }.last { $0.snapshot?.controllers.count == 1 })
            #expect(message.generation == 1)
            #expect(message.snapshot?.controllers.first?.attitude == Attitude(roll: 0.42, pitch: 0.2, yaw: 0.3))
            #expect(message.settings?.values["mode"] == "pointer")
        }
        await f.server.shutdown()
    }

    @Test func sendsOnlyWhenChangedAndAtMost20PerSecond() async throws {
        let f = try await Fixture.start()
        try await RawClient.withWebSocket(f.port, token: f.server.token) { received, _ in
            _ = try await received.wait { $0.count >= 1 }
            // Nothing published: nothing more arrives.
            try await Task.sleep(for: .milliseconds(300))
            #expect(received.messages.withLock { $0.count } == 1)
            // 200 publishes in about a second: at most ~20 snapshots go out, the last one included.
            let start = ContinuousClock.now
            for i in 1...200 {
                f.publisher.publish(snapshot(controllers: 1, roll: Double(i)))
                try await Task.sleep(for: .milliseconds(5))
            }
            let elapsed = (ContinuousClock.now - start) / .milliseconds(1)
            let all = try await received.wait { msgs in msgs.contains { (try? decode($0))?.generation == 200 } }
            let generations = all.compactMap { try? decode($0).generation }
            #expect(generations.last == 200)
            #expect(generations == generations.sorted())
            let allowed = 1 + Int(elapsed / 50) + 3
            #expect(all.count <= allowed, "\(all.count) messages in \(elapsed) ms")
            #expect(all.count >= 3)
        }
        await f.server.shutdown()
    }

    @Test func acceptsSettingsChangesAsMessages() async throws {
        let f = try await Fixture.start()
        try await RawClient.withWebSocket(f.port, token: f.server.token) { received, send in
            _ = try await received.wait { $0.count >= 1 }
            try await send(#"{"key":"filter","value":"oneeuro"}"#)
            try await send(#"{"key":"sensitivity","value":"999"}"#)
            let all = try await received.wait { msgs in msgs.compactMap { try? decode($0) }.contains { $0.type == "error" } }
            let decoded = all.compactMap { try? decode($0) }
            #expect(decoded.contains { $0.type == "settings" && $0.settings?.values["filter"] == "oneeuro" })
            #expect(decoded.contains { $0.type == "error" && ($0.error ?? "").contains("sensitivity: 999 is out of range") })
        }
        #expect(await f.settings.current().filterSettings.kind == .oneEuro)
        await f.server.shutdown()
    }

    /// A browser that never reads must not slow publishing nor the other browsers.
    @Test func aStuckBrowserSlowsNothing() async throws {
        let f = try await Fixture.start()
        // ~1 MB per snapshot fills the stuck socket's buffers within a few messages.
        let big = String(repeating: "x", count: 1_000_000)
        try await RawClient.withWebSocket(f.port, token: f.server.token, reading: false) { _, _ in
            try await RawClient.withWebSocket(f.port, token: f.server.token) { received, _ in
                var slowest = Duration.zero
                for i in 1...60 {
                    let s = snapshot(controllers: 1, roll: Double(i), name: big)
                    let t0 = ContinuousClock.now
                    f.publisher.publish(s)
                    slowest = max(slowest, ContinuousClock.now - t0)
                    try await Task.sleep(for: .milliseconds(25))
                }
                let all = try await received.wait(seconds: 10) { msgs in
                    msgs.contains { (try? decode($0))?.generation == 60 }
                }
                #expect(all.compactMap { try? decode($0).generation }.last == 60)
                #expect(slowest < .milliseconds(20), "publish took \(slowest)")
                let api = try await RawClient.request(f.port, "GET", "/api/snapshot")
                #expect(api.status == 200)
            }
        }
        await f.server.shutdown()
    }
}
