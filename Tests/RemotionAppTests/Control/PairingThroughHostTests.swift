import Foundation
import NIOCore
@testable import RemotionApp
import RemotionNetwork
import RemotionProtocol
import RemotionTestSupport
import Testing

/// `remotion pair --listen` while a host runs: the running host opens the pairing
/// window on its own port when asked over the control socket; the asking process
/// sees the request and decides.
@Suite(.serialized) struct PairingThroughHostTests {
    struct Rig {
        let dir: URL
        let store: KeyStore
        let host: HostService<NoiseHostFraming, SinkDriver<DiscardingSink>>
        let server: ControlServer

        static func start() async throws -> Rig {
            let dir = URL(fileURLWithPath: "/tmp/rp-\(UInt32.random(in: 0...UInt32.max))")
            let store = KeyStore(directory: dir)
            let host = try await HostService<NoiseHostFraming, SinkDriver<DiscardingSink>>.start(
                host: "127.0.0.1", port: 0, makeFraming: try SecureHosting.framing(store: store),
                makeSink: { DiscardingSink() })
            let server = ControlServer(path: ControlServer.path(dataDirectory: dir),
                                       handlers: ControlCommands(status: { _, _ in .success([:]) }, pairing: PairingCommands(host: host, store: store).handlers, web: nil).byName)
            try await server.start()
            return Rig(dir: dir, store: store, host: host, server: server)
        }

        func stop() async {
            await server.shutdown()
            await host.shutdown()
            try? FileManager.default.removeItem(at: dir)
        }

        func isPairing() async throws -> Bool {
            try await host.onLoop { $0.withFraming { $0.isPairing(now: MonotonicClock.now()) } }
        }

        /// Whether the host's window is still open once the answer's grace period has run
        /// from now: false as soon as the window was closed, with no wait for the grace.
        func isPairingAfterTheGrace() async throws -> Bool {
            let grace = PairingCommands<SinkDriver<DiscardingSink>>.answerGrace
            return try await host.onLoop { $0.withFraming { $0.isPairing(now: MonotonicClock.now() + grace) } }
        }
    }

    /// Waits (bounded) for the next request through `pair-wait`.
    func nextRequest(_ client: ControlClient) async throws -> [String: ControlValue]? {
        for _ in 0..<20 {
            let answer = try await client.send(ControlRequest("pair-wait", ["seconds": .number(0.5)]))
            #expect(answer.ok)
            if let request = answer.object("request") { return request }
            if answer.bool("closed") == true { return nil }
        }
        return nil
    }

    @Test func aControllerPairsWithTheRunningHostOnItsOwnPort() async throws {
        let rig = try await Rig.start()
        let client = try await ControlClient.connect(path: rig.server.path)
        let opened = try await client.send(ControlRequest("pair-window", ["seconds": .number(30)]))
        let code = try PairingCode.parse(try #require(opened.string("code")))
        #expect(code.address == rig.host.localAddress.displayText, "the code names the running host's own port")
        #expect(opened.string("fingerprint") == KeyFingerprint.fingerprint(of: try rig.store.hostKey().publicKey))
        #expect(try await rig.isPairing())

        let controllerKey = try KeyStore(directory: rig.dir.appendingPathComponent("c")).clientKey()
        let pairing = Task { try await PairingConnector.pair(code: code, staticKey: controllerKey, name: "phone", timeout: .seconds(10)) }
        let request = try #require(try await nextRequest(client))
        #expect(request["name"] == .string("phone"))
        #expect(request["fingerprint"] == .string(KeyFingerprint.fingerprint(of: controllerKey.publicKey)))
        #expect(try rig.store.pairedControllers().isEmpty, "nothing is stored before the user accepts")

        let decided = try await client.send(ControlRequest("pair-decide", ["id": try #require(request["id"]), "accept": .bool(true)]))
        #expect(decided.ok)
        #expect(decided.object("stored")?["name"] == .string("phone"))
        let hostKey = try await pairing.value
        #expect(hostKey == (try rig.store.hostKey().publicKey))
        #expect(try rig.store.pairedControllers().map(\.name) == ["phone"])
        await client.close()
        // One controller per code: the window was closed before the answer came back; it
        // answers for the grace period, then ends (read at that time on the host's clock).
        #expect(try await !rig.isPairingAfterTheGrace())
        await rig.stop()
    }

    @Test func aRefusalStoresNothingAndTheControllerIsTold() async throws {
        let rig = try await Rig.start()
        let client = try await ControlClient.connect(path: rig.server.path)
        let opened = try await client.send(ControlRequest("pair-window", ["seconds": .number(30)]))
        let code = try PairingCode.parse(try #require(opened.string("code")))
        let controllerKey = try KeyStore(directory: rig.dir.appendingPathComponent("c")).clientKey()
        let pairing = Task { try await PairingConnector.pair(code: code, staticKey: controllerKey, name: "stranger", timeout: .seconds(10)) }
        let request = try #require(try await nextRequest(client))
        #expect(try await client.send(ControlRequest("pair-decide", ["id": try #require(request["id"]), "accept": .bool(false)])).ok)
        await #expect(throws: PairingError.self) { try await pairing.value }
        #expect(try rig.store.pairedControllers().isEmpty)
        await client.close()
        await rig.stop()
    }

    @Test func oneWindowAtATimeAndItClosesWithItsConnection() async throws {
        let rig = try await Rig.start()
        let first = try await ControlClient.connect(path: rig.server.path)
        let second = try await ControlClient.connect(path: rig.server.path)
        #expect(try await first.send(ControlRequest("pair-window", ["seconds": .number(60)])).ok)
        let refused = try await second.send(ControlRequest("pair-window", ["seconds": .number(60)]))
        #expect(!refused.ok && refused.error?.contains("already open") == true)
        let notYours = try await second.send(ControlRequest("pair-wait"))
        #expect(!notYours.ok, "a window answers only the connection that opened it")
        await first.close()
        // The server hears the connection end (real I/O) and closes the window, the host's
        // side first: the other connection's next window is refused until then, not after
        // the answer's grace period (that runs on the host's clock, read not waited for).
        #expect(try await eventually(within: .seconds(30)) {
            try await second.send(ControlRequest("pair-window", ["seconds": .number(60)])).ok
        }, "a closed window frees the host")
        #expect(try await rig.isPairing(), "for the new window")
        await second.close()
        await rig.stop()
    }

    @Test func aWindowEndsWhenItsTimeIsUp() async throws {
        let rig = try await Rig.start()
        let client = try await ControlClient.connect(path: rig.server.path)
        #expect(try await client.send(ControlRequest("pair-window", ["seconds": .number(1)])).ok)
        let answer = try await client.send(ControlRequest("pair-wait", ["seconds": .number(1)]))
        let closedAnswer = answer.bool("closed") == true ? answer : try await client.send(ControlRequest("pair-wait", ["seconds": .number(2)]))
        #expect(closedAnswer.bool("closed") == true)
        #expect(try await !rig.isPairing())
        await client.close()
        await rig.stop()
    }
}
