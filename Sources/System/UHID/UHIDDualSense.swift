#if os(Linux)
import Foundation
import Glibc
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// Why a virtual pad could not be made, in one line with the fix.
package struct UHIDError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }

    /// What went wrong opening /dev/uhid and how to fix it.
    package static func openFailure(errno code: Int32, path: String) -> UHIDError {
        switch code {
        case ENOENT, ENODEV, ENXIO:
            return UHIDError("\(path) does not exist: sudo modprobe uhid (persist: echo uhid | sudo tee "
                + "/etc/modules-load.d/uhid.conf); a kernel without CONFIG_UHID cannot have a virtual pad")
        case EACCES, EPERM, EROFS:
            return UHIDError("\(path) is not writable by this user: add the udev rule KERNEL==\"uhid\", "
                + "TAG+=\"uaccess\" (/etc/udev/rules.d/60-remotion-uhid.rules), then sudo udevadm control "
                + "--reload && sudo udevadm trigger --sysname-match=uhid (docs/GAMEPAD.md)")
        default:
            return UHIDError("cannot open \(path): \(String(cString: strerror(code)))")
        }
    }
}

/// One virtual DualSense on /dev/uhid: the adapter around `DualSensePad`. It opens the
/// node, writes UHID_CREATE2, and a thread of its own reads the kernel's events (START,
/// OPEN, GET_REPORT, SET_REPORT, OUTPUT) and writes the pad's replies. `update` writes an
/// input report; `close` (and deinit) writes the rest state, then UHID_DESTROY. The pad's
/// lock guards its state only and is never held across a write: a write into the kernel
/// (an input report reaching hidraw, hid-playstation) may wait on things that wait for
/// this pad's own reply to a GET_REPORT — a game opening the pad's hidraw node reads
/// feature reports while the host writes reports — and a reader that needs the lock the
/// writer holds answers nothing until uhid's 5 s report timeout (the gamepad guest stage saw
/// the host's loop stall for seconds when SDL opened a pad). Input reports and the destroy
/// come only from the caller's thread (the host's loop), so they keep their order; the
/// reader writes only replies, which need no order with them.
package final class UHIDDualSense: Sendable {
    package static let defaultPath = "/dev/uhid"
    private let fd: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let pad: Mutex<DualSensePad>
    /// The input report and its event, reused sample after sample (`update`).
    private struct InputBuffers { var report: [UInt8] = []; var event: [UInt8] = [] }
    private let input = Mutex(InputBuffers())
    private let finished = Atomic<Bool>(false)
    private let readerDone = DispatchSemaphore(value: 0)
    private let onOutput: @Sendable (DualSenseOutput) -> Void
    private let onEvent: @Sendable (DualSensePad.Event) -> Void

    /// Creates the pad. `onEvent` sees every kernel event (after the pad answered it);
    /// `onOutput` a game's rumble and lightbar. Both run on the reader thread.
    package init(identity: String, bus: DualSenseBus = .bluetooth, path: String = UHIDDualSense.defaultPath,
                 looksOwned: Bool = false,
                 onEvent: @escaping @Sendable (DualSensePad.Event) -> Void = { _ in },
                 onOutput: @escaping @Sendable (DualSenseOutput) -> Void = { _ in }) throws(UHIDError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw UHIDError.openFailure(errno: errno, path: path) }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw UHIDError("cannot make a pipe: \(String(cString: strerror(code)))")
        }
        for wake in pipeFDs { _ = fcntl(wake, F_SETFD, FD_CLOEXEC) }
        self.fd = fd
        self.wakeRead = pipeFDs[0]
        self.wakeWrite = pipeFDs[1]
        self.onOutput = onOutput
        self.onEvent = onEvent
        // `looksOwned` (the local-pads guest stage only): a real pad's name and a phys of its
        // own, so `--local-pads` reads it as a pad a person owns.
        let pad = looksOwned ? DualSensePad(identity: identity, bus: bus, name: "DualSense Wireless Controller",
                                            phys: "owned-pad/\(identity)")
                             : DualSensePad(identity: identity, bus: bus)
        self.pad = Mutex(pad)
        let created = self.pad.withLock { pad in Self.write(fd, pad.create()) }
        guard created else {
            let code = errno
            Glibc.close(fd); Glibc.close(pipeFDs[0]); Glibc.close(pipeFDs[1])
            throw UHIDError("UHID_CREATE2 failed on \(path): \(String(cString: strerror(code)))")
        }
        let thread = Thread { [self] in self.readLoop() }
        thread.name = "remotion-uhid"
        thread.start()
    }

    deinit { close() }

    /// Whether this process may make pads: opens `path` read-write and closes it again.
    /// Throws the one-line reason and fix (for `remotion host --gamepad` at start).
    package static func checkAccess(path: String = UHIDDualSense.defaultPath) throws(UHIDError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw UHIDError.openFailure(errno: errno, path: path) }
        Glibc.close(fd)
    }

    package var mac: DualSenseMAC { pad.withLock { $0.mac } }
    package var counters: DualSensePad.Counters { pad.withLock { $0.counters } }
    package var isStarted: Bool { pad.withLock { $0.started } }

    /// Writes `state` as an input report (nothing before the kernel started the device).
    /// False when the write failed.
    @discardableResult
    package func update(_ state: GamepadState) -> Bool {
        // The report and its UHID_INPUT2 event in buffers kept for the next sample. Their lock
        // is held across the write (only this, `close`'s caller's thread, takes it); the pad's
        // is not: the reader thread needs it to answer the kernel meanwhile.
        input.withLock { s in
            guard pad.withLock({ $0.input(state, into: &s.report) }) else { return true }
            UHIDEvent.input2(s.report, into: &s.event)
            return s.event.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == s.event.count
        }
    }

    /// Rest state, then UHID_DESTROY; stops the reader and closes the node. Idempotent.
    package func close() {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let fd = self.fd
        let now = Self.now()
        _ = Self.write(fd, pad.withLock { $0.finish(at: now) })
        var one: UInt8 = 1
        _ = Glibc.write(wakeWrite, &one, 1)
        readerDone.wait()
        Glibc.close(fd); Glibc.close(wakeRead); Glibc.close(wakeWrite)
    }

    /// The host's monotonic clock, as the host's samples carry it.
    package static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    private func readLoop() {
        defer { readerDone.signal() }
        let fd = self.fd
        var buffer = [UInt8](repeating: 0, count: UHIDEvent.size)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 { if errno == EINTR { continue }; return }
            if fds[1].revents != 0 || finished.load(ordering: .acquiring) { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else {
                if fds[0].revents != 0 { return }  // POLLERR/POLLHUP: the node is gone
                continue
            }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return }
            guard n > 0, let event = UHIDEvent.decode(buffer[0..<n]) else { continue }
            let actions = pad.withLock { $0.handle(event) }
            _ = Self.write(fd, actions)
            for case let .output(output) in actions { onOutput(output) }
            onEvent(event)
        }
    }

    /// Writes each action's event; false at the first write that fails. (Also the
    /// benchmark's stand-in pad's write, `NullSinkPad`, so both write alike.)
    package static func write(_ fd: Int32, _ actions: [DualSensePad.Action]) -> Bool {
        for action in actions {
            guard let bytes = UHIDEvent.bytes(for: action) else { continue }
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written != bytes.count { return false }
        }
        return true
    }
}
#endif
