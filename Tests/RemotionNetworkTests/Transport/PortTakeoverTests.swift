import NIOCore
import NIOPosix
import RemotionProtocol
import RemotionNetwork
import Testing

/// A running host's UDP port cannot be bound a second time (no SO_REUSEADDR), so no
/// other process can take its controllers' datagrams.
@Suite(.serialized) struct PortTakeoverTests {
    @Test func aSecondHostCannotBindTheSamePort() async throws {
        let first = try await startRecordingHost()
        let port = try #require(first.localAddress.port)
        await #expect(throws: (any Error).self) {
            let second = try await HostService<PlainFraming, SinkDriver<RecordingSink>>.start(
                host: "127.0.0.1", port: port, makeFraming: { PlainFraming() }, makeSink: { RecordingSink() })
            await second.shutdown()
        }
        await first.shutdown()
    }

    @Test func aPlainSocketWithReuseAddrCannotTakeThePortEither() async throws {
        // What an attacker's process would do: set SO_REUSEADDR itself and bind.
        let first = try await startRecordingHost()
        let port = try #require(first.localAddress.port)
        await #expect(throws: (any Error).self) {
            let thief = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: "127.0.0.1", port: port).get()
            try await thief.close()
        }
        await first.shutdown()
    }

    @Test func theWildcardBindAlsoRefusesALoopbackBindOfItsPort() async throws {
        let first = try await HostService<PlainFraming, SinkDriver<RecordingSink>>.start(
            host: "0.0.0.0", port: 0, makeFraming: { PlainFraming() }, makeSink: { RecordingSink() })
        let port = try #require(first.localAddress.port)
        await #expect(throws: (any Error).self) {
            let second = try await HostService<PlainFraming, SinkDriver<RecordingSink>>.start(
                host: "127.0.0.1", port: port, makeFraming: { PlainFraming() }, makeSink: { RecordingSink() })
            await second.shutdown()
        }
        await first.shutdown()
    }
}
