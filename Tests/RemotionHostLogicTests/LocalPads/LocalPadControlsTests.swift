import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A pad's gamepad node, pairing of its nodes, and Remotion's own pads left out.
@Suite struct LocalPadControlsTests {
    static let dualSenseAxes: [UInt16: EvdevAbsInfo] = [
        EvdevCode.absX: EvdevAbsInfo(value: 128, minimum: 0, maximum: 255), EvdevCode.absY: EvdevAbsInfo(value: 128, minimum: 0, maximum: 255),
        EvdevCode.absRX: EvdevAbsInfo(value: 128, minimum: 0, maximum: 255), EvdevCode.absRY: EvdevAbsInfo(value: 128, minimum: 0, maximum: 255),
        EvdevCode.absZ: EvdevAbsInfo(minimum: 0, maximum: 255), EvdevCode.absRZ: EvdevAbsInfo(minimum: 0, maximum: 255),
        EvdevCode.absHat0X: EvdevAbsInfo(minimum: -1, maximum: 1), EvdevCode.absHat0Y: EvdevAbsInfo(minimum: -1, maximum: 1),
    ]

    func key(_ code: UInt16, _ down: Bool) -> [EvdevInputEvent] {
        [EvdevInputEvent(type: EvdevCode.keyType, code: code, value: down ? 1 : 0), .init(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)]
    }

    func abs(_ values: [UInt16: Int32]) -> [EvdevInputEvent] {
        values.sorted { $0.key < $1.key }.map { EvdevInputEvent(type: EvdevCode.absType, code: $0.key, value: $0.value) }
            + [.init(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)]
    }

    @Test func buttonsByPositionAndTheHatAsTheDpad() {
        var c = LocalPadControls(layout: LocalPadDriver.playstation.controls, axes: Self.dualSenseAxes)
        #expect(c.feed(key(EvdevCode.btnSouth, true)).map(\.0) == [.a])
        #expect(c.buttons.contains(.a))
        #expect(c.feed(abs([EvdevCode.absHat0X: -1, EvdevCode.absHat0Y: 1])).map(\.0) == [.c, .f])   // left + down
        let up = c.feed(abs([EvdevCode.absHat0X: 0, EvdevCode.absHat0Y: -1]))
        #expect(up.map(\.0) == [.c, .f, .e] && up.map(\.1) == [false, false, true])   // releases first
        #expect(c.feed(key(EvdevCode.btnMode, true)).map(\.0) == [.o])
        #expect(c.feed(key(0x2c0, true)).isEmpty)                                         // an unmapped key
        let released = c.releaseAll()
        #expect(Set(released.map(\.0)) == [.a, .e, .o] && released.allSatisfy { !$0.1 })
    }

    @Test func sticksAndTriggersScaleByTheirRange() {
        var c = LocalPadControls(layout: LocalPadDriver.playstation.controls, axes: Self.dualSenseAxes)
        _ = c.feed(abs([EvdevCode.absX: 255, EvdevCode.absY: 0, EvdevCode.absRZ: 255, EvdevCode.absZ: 51]))
        let a = c.analog
        #expect(a?.leftX == 1 && a?.leftY == -1 && a?.rightTrigger == 1 && a?.leftTrigger == 0.2)
        #expect(Swift.abs((a?.rightX ?? 1) - 0.5 / 127.5) < 1e-6)   // 128 of 0…255 is just right of centre
    }

    @Test func aKeyHeldAtOpenIsDownAndResyncReadsTheState() {
        var pad = try! LocalPad(driver: .playstation, motionAxes: Dictionary(uniqueKeysWithValues: EvdevCode.motionAxes.map {
            ($0, EvdevAbsInfo(minimum: -1000, maximum: 1000, resolution: 10))
        }))
        #expect(pad.attachControls(axes: Self.dualSenseAxes, pressed: [EvdevCode.btnEast]) == [.button(.b, isDown: true)])
        #expect(pad.resyncControls(pressed: [EvdevCode.btnSouth], values: [:]) == [.button(.b, isDown: false), .button(.a, isDown: true)])
        // A sample carries the buttons down at its frame; the gamepad node going away releases them.
        let s = pad.motionEvents([EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)])
        guard case .sample(let sample) = s.first else { Issue.record("no sample"); return }
        #expect(sample.buttons == ButtonSet([.a]) && sample.analog != nil)
        #expect(pad.detachControls() == [.button(.a, isDown: false)])
        #expect(!pad.hasControls)
    }

    /// A press lost in a drop is delivered at the drop (from the reread keys), before the
    /// frames queued behind it; its release there is an ordinary edge.
    @Test func aPressLostInADropIsReadBackBeforeTheFramesBehindIt() {
        var pad = try! LocalPad(driver: .playstation, motionAxes: Dictionary(uniqueKeysWithValues: EvdevCode.motionAxes.map {
            ($0, EvdevAbsInfo(minimum: -1000, maximum: 1000, resolution: 10))
        }))
        _ = pad.attachControls(axes: Self.dualSenseAxes)
        let queued = [EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synDropped, value: 0),
                      .init(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)] + key(EvdevCode.btnSouth, false)
        let events = pad.controlEvents(queued) { ([EvdevCode.btnSouth], [:]) }
        #expect(events == [.button(.a, isDown: true), .button(.a, isDown: false)])
        // Counted apart from the motion node's drops: a click the kernel lost shows in the drops.
        #expect(pad.counters.buttonsDroppedByKernel == 1 && pad.counters.droppedByKernel == 0)
        #expect(pad.counters.counts == [.buttonsDroppedByKernel: 1])
    }

    @Test func steamDeckTriggersAreOnHat2AndItsHatsAreTrackpads() {
        let axes: [UInt16: EvdevAbsInfo] = [EvdevCode.absX: EvdevAbsInfo(minimum: -32767, maximum: 32767),
                                            EvdevCode.absHat0X: EvdevAbsInfo(minimum: -32767, maximum: 32767),
                                            0x15: EvdevAbsInfo(minimum: 0, maximum: 32767)]
        var c = LocalPadControls(layout: LocalPadDriver.steam.controls, axes: axes)
        #expect(c.feed(abs([EvdevCode.absHat0X: -30000, 0x15: 32767])).isEmpty)            // the trackpad is no d-pad
        #expect(c.analog?.leftTrigger == 1)
        #expect(c.feed(key(EvdevCode.btnDpadLeft, true)).map(\.0) == [.c])
    }

    static let sony: UInt16 = 0x054C

    @Test func nodesPairBySameUniqElseSameParentAndOwnPadsAreLeftOut() {
        let nodes = [
            EvdevNodeInfo(path: "/dev/input/event3", name: "DualSense Wireless Controller", uniq: "a0:ab:51:00:00:01", vendor: Self.sony,
                          parent: "/sys/x/0005:054C:0CE6.0001", isGamepad: true),
            EvdevNodeInfo(path: "/dev/input/event4", name: "DualSense Wireless Controller Touchpad", uniq: "a0:ab:51:00:00:01",
                          vendor: Self.sony, parent: "/sys/x/0005:054C:0CE6.0001"),
            EvdevNodeInfo(path: "/dev/input/event5", name: "DualSense Wireless Controller Motion Sensors", uniq: "a0:ab:51:00:00:01",
                          vendor: Self.sony, parent: "/sys/x/0005:054C:0CE6.0001", isMotion: true),
            // A pad with no uniq: paired by its parent device.
            EvdevNodeInfo(path: "/dev/input/event6", name: "Nintendo Switch Pro Controller", vendor: 0x057E, parent: "/sys/y/pro", isGamepad: true),
            EvdevNodeInfo(path: "/dev/input/event7", name: "Nintendo Switch Pro Controller IMU", vendor: 0x057E, parent: "/sys/y/pro", isMotion: true),
            // Remotion's own virtual pad (`--gamepad dualsense`): name and phys as DualSensePad makes them.
            EvdevNodeInfo(path: "/dev/input/event9", name: "Remotion virtual DualSense", phys: "remotion/02:11:22:33:44:55",
                          uniq: "02:11:22:33:44:55", vendor: Self.sony, isGamepad: true),
            EvdevNodeInfo(path: "/dev/input/event11", name: "Remotion virtual DualSense Motion Sensors", phys: "remotion/02:11:22:33:44:55",
                          uniq: "02:11:22:33:44:55", vendor: Self.sony, isMotion: true),
            // An accelerometer of no known driver (a laptop's): skipped, said why.
            EvdevNodeInfo(path: "/dev/input/event12", name: "ST LIS3LV02DL Accelerometer", vendor: 0x0001, isMotion: true),
        ]
        let plans = LocalPadNodes.plans(nodes)
        #expect(plans.map(\.motion.path) == ["/dev/input/event5", "/dev/input/event7"])
        #expect(plans.map { $0.controls?.path } == ["/dev/input/event3", "/dev/input/event6"])
        #expect(plans.map(\.driver) == [.playstation, .nintendo])
        #expect(LocalPadNodes.skipReason(nodes[6]) == "Remotion's own virtual pad")
        #expect(LocalPadNodes.skipReason(nodes[7])?.hasPrefix("no known axis convention for vendor 0x0001") == true)
        #expect(LocalPadNodes.displayName(nodes[2]) == "DualSense Wireless Controller (a0:ab:51:00:00:01)")
        #expect(LocalPadNodes.displayName(nodes[4]) == "Nintendo Switch Pro Controller")
        let grip = EvdevNodeInfo(path: "/dev/input/event8", name: "Nintendo Switch Left Joy-Con IMU (Grip)", uniq: "98:B6:E9:00:00:02",
                                 vendor: 0x057E, isMotion: true)
        #expect(LocalPadNodes.displayName(grip) == "Nintendo Switch Left Joy-Con (Grip) (98:B6:E9:00:00:02)")
        let pro612 = EvdevNodeInfo(path: "/dev/input/event3", name: "Nintendo Co., Ltd. Pro Controller (IMU)",
                                   uniq: "98:B6:E9:12:34:56", vendor: 0x057E, isMotion: true)
        #expect(LocalPadNodes.displayName(pro612) == "Nintendo Co., Ltd. Pro Controller (98:B6:E9:12:34:56)",
                "Linux 6.12's hid-nintendo names the IMU node after the device, with \" (IMU)\"")
    }

    /// The very name and phys the virtual pad is created with are recognised as Remotion's own.
    @Test func theVirtualPadsOwnIdentityIsExcluded() {
        let pad = DualSensePad(identity: "name:phone")
        let node = EvdevNodeInfo(path: "/dev/input/event1", name: pad.name + " Motion Sensors", phys: "remotion/\(pad.mac)",
                                 uniq: pad.mac.description, vendor: Self.sony, isMotion: true)
        #expect(LocalPadNodes.isRemotionsOwn(node))
        #expect(LocalPadNodes.plans([node]).isEmpty)
        // The guest stage's stand-in for a pad a person owns (`gamepad-probe --as-owned`) is not.
        let owned = DualSensePad(identity: "owned-pad", name: "DualSense Wireless Controller", phys: "owned-pad/owned-pad")
        #expect(!LocalPadNodes.isRemotionsOwn(EvdevNodeInfo(path: "/dev/input/event2", name: owned.name + " Motion Sensors",
                                                             phys: owned.phys, vendor: Self.sony, isMotion: true)))
    }

    @Test func noReadAccessSaysWhichNodeAndWhatFixesIt() {
        let node = EvdevNodeInfo(path: "/dev/input/event5", name: "DualSense Wireless Controller Motion Sensors", uniq: "a0:ab:51:00:00:01")
        let line = LocalPadNodes.accessProblem(node, group: "input")
        #expect(line.hasPrefix("local pads: cannot read /dev/input/event5 (group input), DualSense Wireless Controller (a0:ab:51:00:00:01)"))
        #expect(line.contains("sudo usermod -aG input $USER") && line.contains("uaccess") && !line.contains("\n"))
    }

    @Test func configTableTurnsItOnAndGrabs() throws {
        let c = try HostConfig.parse("[local-pads]\nenabled = true\ngrab = true\n", path: "config.toml")
        #expect(c.localPads == LocalPadsConfig(enabled: true, grab: true))
        #expect(throws: ConfigError.self) { try HostConfig.parse("[local-pads]\nenabled = \"yes\"\n", path: "config.toml") }
        #expect(throws: ConfigError.self) { try HostConfig.parse("[local-pads]\nexclusive = true\n", path: "config.toml") }
    }
}
