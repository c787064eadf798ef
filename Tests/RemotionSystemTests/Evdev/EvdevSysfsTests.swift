#if os(Linux)
import Testing
import Foundation
import Synchronization
import RemotionHostLogic
@testable import RemotionSystem

/// sysfs's bitmaps as the kernel prints them, and the reader's start and stop without pads.
@Suite struct EvdevSysfsTests {
    @Test func bitmapsAreLongsHighestFirst() {
        // A DualSense's Motion Sensors node: properties 40 (INPUT_PROP_ACCELEROMETER, bit 6).
        #expect(EvdevSysfs.bitmap("40") == [EvdevCode.propAccelerometer])
        // Its gamepad node's keys: BTN_SOUTH (0x130 = 304) sits in the fifth long, bit 48.
        let keys = EvdevSysfs.bitmap("7fdb000000000000 0 0 0 0")
        #expect(keys.contains(Int(EvdevCode.btnSouth)) && keys.contains(Int(EvdevCode.btnMode)))
        #expect(!keys.contains(Int(EvdevCode.btnSouth) - 64))
        #expect(EvdevSysfs.bitmap("").isEmpty && EvdevSysfs.bitmap("zz 1") == [0])
    }

    /// The group a node belongs to, for the fix a person is told: from getgrgid_r, whatever
    /// other threads look up meanwhile; root's group and a missing file say nothing.
    @Test func aNodesGroupIsNamedAndRootsIsNot() throws {
        let path = NSTemporaryDirectory() + "remotion-group-\(getpid())"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { unlink(path) }
        try #require(chown(path, getuid(), 0) == 0, "the suite runs as root")
        #expect(EvdevSysfs.group(of: path) == nil, "root's group")
        try #require(chown(path, getuid(), 65534) == 0)
        #expect(EvdevSysfs.group(of: path) == (getgrgid(65534).map { String(cString: $0.pointee.gr_name) }))
        #expect(EvdevSysfs.group(of: path + "-gone") == nil)
    }

    /// With no pads (this machine has no /dev/input at all), the reader starts, says nothing
    /// but may say inotify's state, and stops at once.
    @Test func theReaderStartsAndStopsWithoutPads() throws {
        final class Opened: Sendable { let count = Atomic<Int>(0) }
        let opened = Opened()
        let watcher = try LocalPadWatcher(config: LocalPadsConfig(enabled: true)) { notice in
            if case .opened = notice { opened.count.add(1, ordering: .relaxed) }
        }
        watcher.stop()
        #expect(opened.count.load(ordering: .relaxed) == 0 || FileManager.default.fileExists(atPath: "/dev/input"))
    }
}
#endif
