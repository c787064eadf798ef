#if os(Linux)
import Glibc
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
import Synchronization

/// `remotion host --gamepad dualsense --gamepad-sink null`, for benchmarks only (hidden
/// from --help; scripts/bench-gamepad.sh, docs/BENCHMARKS.md): every controller's pad is a
/// `NullSinkPad`, which writes what a `UHIDDualSense` would write into /dev/null instead of
/// /dev/uhid. A stand-in, because the machine the benchmarks run on has no /dev/uhid (its
/// kernel has no CONFIG_UHID), and the guest that has one runs under TCG, far too slow to
/// time: it proves the reports right (scripts/gamepad-guest-test.sh), this times them.
/// What the stand-in leaves out is the kernel's side of the write (the HID core parsing the
/// report, hid-playstation's evdev events). It counts every report and times each from the
/// host's receipt of its event to the report written (`PadReportTimes`), and says so on
/// the host's stop line, beside the pads' own summary. Only the host's loop touches it.
package final class NullPadSink: HostDropReporter {
    package private(set) var times = PadReportTimes()
    private let path: String

    package init(path: String = "/dev/null") { self.path = path }

    /// A pad for `VirtualPadOutput` (its `makePad`).
    package func makePad(identity: String, bus: DualSenseBus) throws(UHIDError) -> NullSinkPad {
        try NullSinkPad(identity: identity, bus: bus, path: path, sink: self)
    }

    fileprivate func record(received: Instant, ok: Bool) {
        times.record(received: received, done: MonotonicClock.now(), ok: ok)
    }

    fileprivate func recordUntimed(ok: Bool) { times.recordUntimed(ok: ok) }

    /// None of its own: a failed write is the pads' "report-not-written" already.
    package var hostDrops: [HostDrop: Int] { [:] }
    package var summary: String { times.summary }
}

/// One virtual DualSense as `UHIDDualSense` runs it, written into /dev/null (see
/// `NullPadSink`): the same `DualSensePad` (UHID_CREATE2 written at creation, then started
/// as the kernel's UHID_START would start it), the same input report (the Bluetooth one
/// with its CRC-32) in the same UHID_INPUT2 event, written by the same
/// `UHIDDualSense.write`, after the pad's lock is let go (as the production pad does). No reader thread: /dev/null sends no
/// kernel events. After each write it reads the clock once (the production pad does not)
/// and records the time since the event's receipt.
package final class NullSinkPad: VirtualPadDevice {
    private let fd: Int32
    private let pad: Mutex<DualSensePad>
    private let sink: NullPadSink
    private var closed = false

    init(identity: String, bus: DualSenseBus, path: String, sink: NullPadSink) throws(UHIDError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw UHIDError.openFailure(errno: errno, path: path) }
        var pad = DualSensePad(identity: identity, bus: bus)
        guard UHIDDualSense.write(fd, pad.create()) else {
            let code = errno
            Glibc.close(fd)
            throw UHIDError("UHID_CREATE2 failed on \(path): \(String(cString: strerror(code)))")
        }
        _ = pad.handle(.start)
        self.fd = fd
        self.pad = Mutex(pad)
        self.sink = sink
    }

    deinit { close() }

    package var mac: DualSenseMAC { pad.withLock { $0.mac } }

    package func update(_ state: GamepadState, received: Instant) -> Bool {
        let fd = self.fd
        let ok = UHIDDualSense.write(fd, pad.withLock { $0.update(state) })
        sink.record(received: received, ok: ok)
        return ok
    }

    /// Rest state (counted, not timed), then UHID_DESTROY, then the node closed. Idempotent.
    package func close() {
        guard !closed else { return }
        closed = true
        let fd = self.fd
        let now = MonotonicClock.now()
        let ok = UHIDDualSense.write(fd, pad.withLock { $0.finish(at: now) })
        sink.recordUntimed(ok: ok)
        Glibc.close(fd)
    }
}
#endif
