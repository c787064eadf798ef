import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// The status view's "held" field keeps the input's kind from the pipeline to the screen:
/// the arrow key Left (button C) is `key:Left`, the mouse button (A) `mouse:left`.
@Suite(.serialized) struct HeldLabelTests {
    @Test func arrowKeysAndMouseButtonsKeepTheirKind() async throws {
        let rig = try await PipelineRig.start()
        let id = SessionID(0x42)
        let snapshot = try await rig.drive([.sessionOpened(id, .udp(PipelineRig.address)),
                                            .button(id, .c, isDown: true), .button(id, .d, isDown: true),
                                            .button(id, .a, isDown: true)])
        let held = try #require(snapshot.controllers.first?.held)
        #expect(Set(held.map(\.label)) == ["mouse:left", "key:Left", "key:Right"])
        let status = StatusSnapshot(snapshot, addresses: ["127.0.0.1"], port: 7474)
        #expect(Set(try #require(status.controllers.first).held) == [.mouse(.left), .key(.left), .key(.right)])
        let lines = ControlView(width: 100).lines(for: status)
        let heldLine = try #require(lines.first { $0.contains("held") })
        #expect(heldLine.contains("mouse:left") && heldLine.contains("key:Left") && heldLine.contains("key:Right"), "\(heldLine)")
        #expect(!heldLine.contains("mouse:right"), "\(heldLine)")
        await rig.stop()
    }

    @Test func labelsRoundTrip() {
        for input in [HeldInput.mouse(.left), .mouse(.forward), .key(.left), .key(.shift), .key(.letter("i"))] {
            #expect(HeldInput(label: input.label) == input, "\(input.label)")
        }
        #expect(HeldInput(label: "left") == nil)
        #expect(HeldInput(label: "key:NoSuchKey") == nil)
    }
}
