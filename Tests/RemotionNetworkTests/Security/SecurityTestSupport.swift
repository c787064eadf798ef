import RemotionTestSupport
import Foundation
import NIOCore
import NIOPosix
import RemotionProtocol
import RemotionNetwork
import Synchronization

struct SecureRecorded: Sendable {
    var actions: [HostAction<SocketAddress>]
    var report: HostReport
    var cookieReplies: Int
    var halfOpen: Int

    var opened: Int { actions.filter { if case .sessionOpened = $0 { true } else { false } }.count }
    var buttonEdges: [String] {
        actions.compactMap { if case let .button(_, b, d) = $0 { return "\(b)\(d ? "↓" : "↑")" } else { return nil } }
    }
    var motionCount: Int { actions.filter { if case .motion = $0 { true } else { false } }.count }
    /// Anything that would reach the injector.
    var injected: Int { motionCount + buttonEdges.count }
}

/// A fresh key directory under the system temporary directory.
func temporaryStore(_ label: String) -> KeyStore {
    KeyStore(directory: FileManager.default.temporaryDirectory
        .appendingPathComponent("remotion-security-tests-\(label)-\(UUID().uuidString)"))
}

func removeStore(_ store: KeyStore) { try? FileManager.default.removeItem(at: store.directory) }

typealias SecureHostService = HostService<NoiseHostFraming, SinkDriver<RecordingSink>>

func startSecureHost(store: KeyStore, port: Int = 0, pairing: [UInt8]? = nil, desk: PairingDesk? = nil,
                     stats: SecurityStats = SecurityStats(), timeout: Duration = .milliseconds(2500),
                     maximumSessions: Int = 16) async throws -> SecureHostService {
    var configuration = HostStateMachine<SocketAddress>.Configuration()
    configuration.timeout = timeout
    configuration.maximumSessions = maximumSessions
    return try await HostService.start(
        host: "127.0.0.1", port: port, configuration: configuration,
        // A window far longer than a pairing's 30 s timeout: between the host's start and the
        // controller's first message the test's task waits its turn on the suite's pool.
        makeFraming: try SecureHosting.framing(store: store, pairing: pairing.map { ($0, .seconds(300)) }, desk: desk,
                                            stats: stats),
        makeSink: { RecordingSink() })
}

func recorded(_ host: SecureHostService) async throws -> SecureRecorded {
    try await host.onLoop { handler in
        SecureRecorded(actions: handler.sink.actions, report: handler.report(),
                 cookieReplies: 0, halfOpen: 0)
    }
}

/// Pairs a new controller key with the host through the real XXpsk3 flow. The host's
/// "user" answers `accept`; returns the controller's key and the host's key it learned.
func pairThroughRealFlow(hostStore: KeyStore, clientStore: KeyStore, accept: Bool = true)
    async throws -> (client: KeyPair, hostKey: [UInt8]) {
    let secret = SecureHosting.newSecret()
    // The user's answer comes on the host's loop (PairingDesk's automatic answer), not from a
    // task iterating `desk.requests` that waits its turn on the pool the whole suite shares.
    let desk = PairingDesk(automatic: { request in
        accept && (try? hostStore.addPaired(name: request.name, publicKey: request.publicKey)) != nil
    })
    let host = try await startSecureHost(store: hostStore, pairing: secret, desk: desk)
    let code = PairingCode(hostKey: try hostStore.hostKey().publicKey, secret: secret, address: host.localAddress.displayText)
    let key = try clientStore.clientKey()
    do {
        // 30 s, not the CLI's 5: a bound for a broken flow, far from the few ms a working one
        // takes even under load. The timeout has its own test (unansweredPairingTimesOutAndLeavesNoTrust).
        let hostKey = try await PairingConnector.pair(code: code, staticKey: key, name: "test controller", timeout: .seconds(30))
        _ = try clientStore.addKnownHost(publicKey: hostKey, address: code.address)
        desk.finish()
        await host.shutdown()
        return (key, hostKey)
    } catch {
        desk.finish()
        await host.shutdown()
        throw error
    }
}

func startSecureClient(to address: SocketAddress, key: KeyPair, hostKey: [UInt8], duration: Double?,
                       presses: [PressScript.Press] = [], timeout: Duration = .milliseconds(2500))
    async throws -> ClientService<NoiseClientFraming> {
    var configuration = ClientSession.Configuration()
    configuration.timeout = timeout
    let plan = StreamPlan(source: SyntheticMotion(shape: .circle), rate: 100, duration: duration,
                          presses: PressScript(presses: presses))
    return try await ClientService<NoiseClientFraming>.start(
        host: address, sessionID: SessionID(UInt32.random(in: 1...UInt32.max)), configuration: configuration,
        plan: plan, makeFraming: { NoiseClientFraming(staticKey: key, hostStatic: hostKey) })
}

func events<F: ClientFraming>(of client: ClientService<F>) async -> [ClientEvent] {
    var out: [ClientEvent] = []
    for await e in client.events { out.append(e) }
    return out
}

