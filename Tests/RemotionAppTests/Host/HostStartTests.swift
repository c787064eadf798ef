import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionTestSupport
import Testing

/// What the dashboard shows before and between controllers: where the host listens, an
/// uptime counted from the host's start, settings changed with nobody connected.
@Suite(.serialized) struct HostStartTests {
    @Test func theFirstSnapshotNamesTheListenAddressAndStartsTheUptime() async throws {
        let rig = try await PipelineRig.start()
        try await rig.host.announceStart()
        let first = rig.publisher.current()
        #expect(first.listen == rig.host.localAddress.displayText && !first.listen.isEmpty)
        #expect(first.controllers.isEmpty)
        // The first controller comes 1.2 s later on the pipeline's clock (handed to it, not waited).
        let later = try await rig.drive([.sessionOpened(SessionID(9), .udp(PipelineRig.address))], later: .milliseconds(1200))
        #expect(later.uptime >= 1.2, "uptime counts from the host's start, not from the first controller: \(later.uptime)")
        #expect(later.listen == first.listen)
        await rig.stop()
    }

    @Test func aSettingsChangeIsPublishedWithNoControllerConnected() async throws {
        let rig = try await PipelineRig.start()
        try await rig.host.announceStart()
        let control = HostLoopSettingsControl(host: HostLoop(rig.host))
        _ = try await control.apply(key: "sensitivity", value: "2.5")
        #expect(rig.publisher.current().settings.sensitivity == 2.5)
        await rig.stop()
    }
}
