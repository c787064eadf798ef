import Foundation
import Logging
import NIOCore
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionTestSupport
import Testing

/// Controllers are shown by name: `HostPipeline.setName` for any transport, and for Noise
/// sessions the name the controller paired under, from the key store.
@Suite(.serialized) struct SessionNameTests {
    @Test func setNameReachesTheSnapshotAndTheView() async throws {
        let rig = try await PipelineRig.start()
        let id = SessionID(0x51)
        _ = try await rig.drive([.sessionOpened(id, .udp(PipelineRig.address))])
        try await rig.host.onLoop { $0.sink.setName(id, "web phone") }
        let snapshot = try await rig.drive([])
        #expect(snapshot.controllers.first?.name == "web phone")
        let header = ControlView(width: 100).lines(for: StatusSnapshot(snapshot, addresses: [], port: 7474))[2]
        #expect(header.contains("web phone  127.0.0.1:50000"), "\(header)")
        #expect(header.components(separatedBy: "127.0.0.1:50000").count == 2, "the address once: \(header)")
        await rig.stop()
    }

    @Test func aNoiseSessionIsNamedAfterItsPairedController() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let hostStore = KeyStore(directory: dir.appendingPathComponent("host"))
        let clientKey = try KeyStore(directory: dir.appendingPathComponent("client")).clientKey()
        _ = try hostStore.addPaired(name: "kitchen phone", publicKey: clientKey.publicKey)
        let publisher = SnapshotPublisher()
        // A live reader: the host builds its snapshots every report tick only for one.
        let lease = await publisher.lease(.everyTick)
        defer { withExtendedLifetime(lease) {} }
        let host = try await HostRoot.start(
            bind: "127.0.0.1", port: 0, maximumControllers: 16, makeFraming: try SecureHosting.framing(store: hostStore),
            makeOutputs: { _ in
                HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: ScreenGeometry(width: 800, height: 600))),
                             buttonMap: .seedDefault, settings: MappingSettings(), logger: Logger(label: "t"), publisher: publisher)
            })
        let names = PairedNames(store: hostStore)
        try await host.onLoop { $0.sink.pairedNames = names }
        let hostKey = try hostStore.hostKey().publicKey
        let plan = StreamPlan(source: SyntheticMotion(shape: .circle), rate: 50, duration: 3, presses: PressScript(presses: []))
        let client = try await ClientService<NoiseClientFraming>.start(
            host: host.localAddress, sessionID: SessionID(77), plan: plan,
            makeFraming: { NoiseClientFraming(staticKey: clientKey, hostStatic: hostKey) })
        #expect(await eventually(within: .seconds(30)) { publisher.current().controllers.first?.name == "kitchen phone" },
                "names: \(publisher.current().controllers.map(\.name))")
        await client.close()
        await host.shutdown()
    }
}
