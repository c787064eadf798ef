import RemotionTestSupport
import NIOCore
import NIOPosix
import RemotionProtocol
import RemotionNetwork

/// Records every action the host's engine hands out (on the host's loop).
final class RecordingSink: HostEventSink {
    var actions: [HostAction<SocketAddress>] = []
    var shutDown = false
    func handle(_ action: HostAction<SocketAddress>, now: Instant) { actions.append(action) }
    func shutdown(now: Instant) { shutDown = true }
}

/// What a test reads back from the host.
struct Recorded: Sendable {
    var actions: [HostAction<SocketAddress>]
    var report: HostReport

    var buttonEdges: [(Button, Bool)] {
        actions.compactMap { if case let .button(_, b, d) = $0 { return (b, d) } else { return nil } }
    }
    var motionCount: Int { actions.filter { if case .motion = $0 { true } else { false } }.count }
    var closeReasons: [SessionCloseReason] {
        actions.compactMap { if case let .sessionClosed(_, r) = $0 { return r } else { return nil } }
    }
    /// True if every button that went down later came up, and nothing came up that was not down.
    var balanced: Bool {
        var held = ButtonSet.none
        for (b, d) in buttonEdges {
            if d == held.contains(b) { return false }
            held.set(b, down: d)
        }
        return held.isEmpty
    }
}

func startRecordingHost(timeout: Duration = .milliseconds(2500)) async throws -> HostService<PlainFraming, SinkDriver<RecordingSink>> {
    var configuration = HostStateMachine<SocketAddress>.Configuration()
    configuration.timeout = timeout
    return try await HostService<PlainFraming, SinkDriver<RecordingSink>>.start(host: "127.0.0.1", port: 0, configuration: configuration,
                                                     makeFraming: { PlainFraming() }, makeSink: { RecordingSink() })
}

func recorded(_ host: HostService<PlainFraming, SinkDriver<RecordingSink>>) async throws -> Recorded {
    try await host.onLoop { handler in
        Recorded(actions: handler.sink.actions, report: handler.report())
    }
}

func startClient(to address: SocketAddress, duration: Double?, presses: [PressScript.Press],
                 timeout: Duration = .milliseconds(2500)) async throws -> ClientService<PlainClientFraming> {
    var configuration = ClientSession.Configuration()
    configuration.timeout = timeout
    let plan = StreamPlan(source: SyntheticMotion(shape: .circle), rate: 100, duration: duration,
                          presses: PressScript(presses: presses))
    return try await ClientService<PlainClientFraming>.start(
        host: address, sessionID: SessionID(UInt32.random(in: 1...UInt32.max)), configuration: configuration,
        plan: plan, makeFraming: { PlainClientFraming() })
}

/// Collects client events until the stream ends.
func events(of client: ClientService<PlainClientFraming>) async -> [ClientEvent] {
    var out: [ClientEvent] = []
    for await e in client.events { out.append(e) }
    return out
}

