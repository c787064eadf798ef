#if os(Linux)
import Logging
import NIOCore
import Testing
import RemotionHostLogic
import RemotionProtocol
@testable import RemotionApp

/// Start-up order: with two `--dsu` sources and `--gamepad dualsense`, the first source's
/// controller once connected before the pads were set up and never got one (SDL saw one pad
/// of two in the guest); for a while the pads were patched onto the early controllers. Now
/// the composition root (`HostRoot`) adds the pads with the outputs, before any source: each
/// controller gets its pad at open, and an output added later patches nothing on.
@Suite struct PadStartupOrderTests {
    typealias Rig = VirtualPadOutputTests.Rig

    func pipelineWithoutPads(_ rig: Rig) -> HostPipeline {
        HostPipeline(injector: Injector(backend: rig.screen), profile: MappingProfile(), logger: Logger(label: "test"))
    }

    @Test func eachControllerGetsItsPadAtOpenAndAnOutputAddedLaterPatchesNothing() throws {
        let rig = Rig()
        let pipeline = pipelineWithoutPads(rig)
        let dsu = try SocketAddress(ipAddress: "127.0.0.1", port: 26760)
        pipeline.handle(.sessionOpened(SessionID(9), .dsu(server: dsu, slot: 3)), now: .zero)
        pipeline.addOutput(rig.output, pads: VirtualPadSettings(forEvery: true))
        #expect(rig.pads.isEmpty, "nothing patched onto a controller that came before the output")
        pipeline.handle(.sessionClosed(SessionID(9), .timedOut), now: .zero + .milliseconds(6))
        pipeline.handle(.sessionOpened(SessionID(1), .dsu(server: dsu, slot: 0)), now: .zero + .milliseconds(7))
        pipeline.handle(.sessionOpened(SessionID(2), .dsu(server: dsu, slot: 1)), now: .zero + .milliseconds(8))
        #expect(rig.pads.count == 2, "each controller got its pad at open")
        #expect(Set(rig.pads.map(\.identity)).count == 2, "two pads, two identities")
        // Each pad follows its own controller only.
        pipeline.handle(.button(SessionID(2), .a, isDown: true), now: .zero + .milliseconds(10))
        #expect(rig.pads[1].states.last?.buttons == [.cross])
        #expect(rig.pads[0].states.allSatisfy { $0.buttons.isEmpty }, "player 2's button never reaches player 1's pad")
        pipeline.handle(.sessionOpened(SessionID(3), .dsu(server: dsu, slot: 2)), now: .zero + .milliseconds(20))
        #expect(rig.pads.count == 3)
        // One leaving rests and removes only its own pad.
        pipeline.handle(.sessionClosed(SessionID(1), .timedOut), now: .zero + .milliseconds(30))
        #expect(rig.pads[0].closed == 1 && rig.pads[1].closed == 0 && rig.pads[2].closed == 0)
    }

    @Test func padsOnlyOnRequestGiveNoEarlyControllerAPad() {
        let rig = Rig(forEvery: false)
        let pipeline = pipelineWithoutPads(rig)
        pipeline.handle(.sessionOpened(SessionID(1), .udp(try! SocketAddress(ipAddress: "192.168.1.20", port: 40000))), now: .zero)
        pipeline.addOutput(rig.output, pads: VirtualPadSettings(forEvery: false))
        #expect(rig.pads.isEmpty)
        #expect(pipeline.setPad(SessionID(1), on: true, now: .zero) == true, "it can still ask")
        #expect(rig.pads.count == 1)
    }
}
#endif
