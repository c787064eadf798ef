#if os(Linux)
import Foundation
import Testing
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
@testable import RemotionApp

/// `remotion host --gamepad-sink null` (benchmarks only): each pad writes exactly the bytes
/// a `UHIDDualSense` would write to /dev/uhid (here into a file instead of /dev/null, to
/// read them back), and counts and times its reports for the stop line.
@Suite struct NullPadSinkTests {
    @Test func aPadWritesWhatTheUHIDPadWouldAndTimesEachReport() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-nullpad-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let sink = NullPadSink(path: file.path)
        let output = VirtualPadOutput(bus: .bluetooth, logger: RecordingLog().logger,
                                      makePad: { identity, bus, _ in try sink.makePad(identity: identity, bus: bus) })
        let states = [GamepadState(motion: .still(at: .zero)), GamepadState(buttons: [.cross], motion: .still(at: .milliseconds(4)))]
        output.perform(.padOpened(identity: "name:bench"), session: SessionID(1), now: .zero)
        for s in states { output.perform(.pad(s), session: SessionID(1), now: MonotonicClock.now()) }
        output.perform(.padClosed(rest: states[0]), session: SessionID(1), now: MonotonicClock.now())

        // What UHIDDualSense writes for the same pad after the kernel's START.
        var pad = DualSensePad(identity: "name:bench", bus: .bluetooth)
        var expected = pad.create()
        _ = pad.handle(.start)
        for s in states + [states[0]] { expected += pad.update(s) }
        let bytes = expected.compactMap(UHIDEvent.bytes(for:)).flatMap { $0 }
        // Then the close: the rest state (stamped with the clock at the close) and UHID_DESTROY.
        let finish = pad.finish(at: .zero).compactMap(UHIDEvent.bytes(for:)).flatMap { $0 }
        let written = try Data(contentsOf: file)
        #expect(written.prefix(bytes.count) == Data(bytes))
        #expect(written.count == bytes.count + finish.count)
        #expect(bytes.count > 3 * (6 + 78), "creation and the 78-byte Bluetooth reports")

        #expect(sink.times.written == 4 && sink.times.failed == 0, "two states and the close's rest (twice)")
        #expect(sink.times.latency.totalCount == 3, "the close's own rest state is not timed")
        #expect(sink.times.latency.max < 1_000_000_000)
        #expect(output.summary == "gamepad: 1 virtual DualSense pads made, 0 refused, 0 reports not written")
        #expect(sink.summary.hasPrefix("pad sink null (stand-in for /dev/uhid): 4 reports written, 0 failed; receipt→report p50 "))
    }

    @Test func aSinkThatCannotOpenItsNodeRefusesThePad() {
        let sink = NullPadSink(path: "/nonexistent/remotion-null")
        let log = RecordingLog()
        let output = VirtualPadOutput(bus: .bluetooth, logger: log.logger,
                                      makePad: { identity, bus, _ in try sink.makePad(identity: identity, bus: bus) })
        output.perform(.padOpened(identity: "a"), session: SessionID(1), now: .zero)
        #expect(output.padCount == 0 && output.dropCounts == [.padNotCreated: 1])
        #expect(log.lines.count == 1 && log.lines[0].hasPrefix("warning: gamepad: no virtual pad"), "said once, as a warning")
    }
}
#endif
