#if os(Linux)
import NIOCore
import Testing
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem
@testable import RemotionApp

/// `remotion host --gamepad`: a pad per controller session, fed, rested and destroyed,
/// through a recording stand-in for the UHID device (the real one runs in
/// scripts/gamepad-guest-test.sh on Debian's kernel).
@Suite struct VirtualPadObserverTests {
    final class RecordingPad: VirtualPadDevice {
        let identity: String
        let mac: DualSenseMAC
        var states: [GamepadState] = []
        var closed = 0
        var accepts = true
        init(identity: String) { self.identity = identity; self.mac = DualSenseMAC(identity: identity) }
        func update(_ state: GamepadState) -> Bool { states.append(state); return accepts }
        func close() { closed += 1 }
    }

    final class Rig {
        var pads: [RecordingPad] = []
        var lines: [String] = []
        var refuse: UHIDError?
        lazy var observer = VirtualPadObserver(
            bus: .bluetooth, identity: { _, origin in "address:\(origin.address?.ipAddress ?? "")" },
            say: { [unowned self] in self.lines.append($0) },
            makePad: { [unowned self] identity, _ in
                if let refuse = self.refuse { throw refuse }
                let pad = RecordingPad(identity: identity)
                self.pads.append(pad)
                return pad
            })
    }

    let phone = try! SocketAddress(ipAddress: "192.168.1.20", port: 40000)
    let phoneAgain = try! SocketAddress(ipAddress: "192.168.1.20", port: 40001)

    @Test func aSessionGetsAPadThatItsMotionAndButtonsFeed() throws {
        let rig = Rig()
        rig.observer.sessionOpened(SessionID(1), origin: .udp(phone), now: .zero)
        let pad = try #require(rig.pads.first)
        #expect(pad.identity == "address:192.168.1.20")
        rig.observer.motion(SessionID(1), MotionSample(timestampMicros: 4_000, gyro: Vector3(x: 0, y: 0, z: .pi)), now: .zero)
        rig.observer.button(SessionID(1), .a, isDown: true, now: .zero)
        rig.observer.motion(SessionID(7), MotionSample(timestampMicros: 1), now: .zero)   // no pad: ignored
        #expect(pad.states.count == 2)
        #expect(abs(pad.states[0].motion.angularRate.y - 180) < 0.01)
        #expect(pad.states[1].buttons == [.cross])
        #expect(rig.lines.count == 1 && rig.lines[0].contains(pad.mac.description))
    }

    @Test func aClosedSessionsPadIsClosedOnceAndNotFedAgain() throws {
        let rig = Rig()
        rig.observer.sessionOpened(SessionID(1), origin: .udp(phone), now: .zero)
        let pad = try #require(rig.pads.first)
        rig.observer.button(SessionID(1), .a, isDown: true, now: .zero)
        rig.observer.sessionClosed(SessionID(1), now: .zero)
        rig.observer.sessionClosed(SessionID(1), now: .zero)
        rig.observer.button(SessionID(1), .a, isDown: false, now: .zero)
        #expect(pad.closed == 1)
        #expect(pad.states.count == 1)
        #expect(rig.observer.padCount == 0)
    }

    @Test func theSameControllerComingBackGetsTheSameMACTwoAtOnceDiffer() throws {
        let rig = Rig()
        rig.observer.sessionOpened(SessionID(1), origin: .udp(phone), now: .zero)
        rig.observer.sessionOpened(SessionID(2), origin: .udp(phoneAgain), now: .zero)
        #expect(rig.pads.count == 2)
        #expect(rig.pads[1].identity == "address:192.168.1.20#2")
        #expect(rig.pads[0].mac != rig.pads[1].mac)
        rig.observer.sessionClosed(SessionID(1), now: .zero)
        rig.observer.sessionClosed(SessionID(2), now: .zero)
        rig.observer.sessionOpened(SessionID(3), origin: .udp(phoneAgain), now: .zero)
        #expect(rig.pads[2].mac == rig.pads[0].mac)
    }

    @Test func closeAllRestsEveryPad() {
        let rig = Rig()
        for i in 1...3 { rig.observer.sessionOpened(SessionID(UInt32(i)), origin: .udp(phone), now: .zero) }
        rig.observer.closeAll()
        #expect(rig.pads.map(\.closed) == [1, 1, 1])
        #expect(rig.observer.padCount == 0)
        #expect(rig.observer.summary == "gamepad: 3 virtual DualSense pads made, 0 refused, 0 reports not written")
    }

    @Test func refusedPadsAndFailedWritesAreCountedAndSaidOnce() throws {
        let rig = Rig()
        rig.refuse = UHIDError.openFailure(errno: 13, path: "/dev/uhid")
        rig.observer.sessionOpened(SessionID(1), origin: .udp(phone), now: .zero)
        rig.observer.sessionOpened(SessionID(2), origin: .udp(phone), now: .zero)
        #expect(rig.observer.dropCounts == ["pad-not-created": 2])
        #expect(rig.lines.count == 1 && rig.lines[0].contains("TAG+=\"uaccess\""))
        rig.refuse = nil
        rig.observer.sessionOpened(SessionID(3), origin: .udp(phone), now: .zero)
        let pad = try #require(rig.pads.first)
        pad.accepts = false
        rig.observer.button(SessionID(3), .b, isDown: true, now: .zero)
        #expect(rig.observer.dropCounts == ["pad-not-created": 2, "report-not-written": 1])
    }
}
#endif
