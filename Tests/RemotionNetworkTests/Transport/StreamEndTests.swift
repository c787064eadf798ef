import NIOCore
import RemotionNetwork
import RemotionProtocol
import RemotionTestSupport
import Testing

/// A press whose release falls on the stream's last moment is still released by the
/// client (the edge used to be skipped when the stream stopped at that same tick).
@Suite(.serialized) struct StreamEndTests {
    @Test func aReleaseAtTheEndOfTheStreamIsSent() async throws {
        let host = try await startRecordingHost()
        let client = try await startClient(to: host.localAddress, duration: 1.0,
                                           presses: [.init(button: .a, at: 0.5, hold: 0.5)])
        let seen = await events(of: client)
        await client.close()
        guard case let .finished(stats)? = seen.last else {
            Issue.record("client did not finish: \(seen)")
            return
        }
        #expect(stats.buttonEdges == 2, "down and up")
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).closeReasons.count == 1 })
        #expect(try await recorded(host).buttonEdges.map { "\($0.0)\($0.1)" } == ["Atrue", "Afalse"])
        await host.shutdown()
    }
}
