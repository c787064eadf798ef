#if os(Linux)
import Foundation
import Glibc
import RemotionTestSupport
import Testing
@testable import RemotionSystem

/// The names the local-pads reader re-reads, from the kernel's own inotify events on a real
/// directory (the struct's layout and padding are the kernel's, not written out here), and
/// "look at everything" when the events say so.
@Suite struct InotifyNamesTests {
    func drain(_ fd: Int32) -> Set<String>? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return [] }
        return buffer.withUnsafeBytes { InotifyNames.parse(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    @Test func theKernelsEventsNameTheNodesThatCameAndWent() throws {
        let dir = try TemporaryDirectory()
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(inotify_add_watch(fd, dir.path, LocalPadReaderLoop.inotifyMask) >= 0)
        for name in ["event4", "event12", "js0"] {   // one IN_CREATE each (no temporary file beside it)
            let node = open("\(dir.path)/\(name)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            try #require(node >= 0)
            close(node)
        }
        #expect(drain(fd) == ["event4", "event12", "js0"])
        chmod("\(dir.path)/event4", 0o660)                         // udev setting the permissions
        unlink("\(dir.path)/event12")
        #expect(drain(fd) == ["event4", "event12"])
    }

    @Test func anOverflowOrANamelessEventMeansEverything() {
        func event(mask: UInt32, name: String) -> [UInt8] {
            var padded = Array(name.utf8)
            if !padded.isEmpty { padded += Array(repeating: 0, count: 16 - padded.count % 16) }
            var bytes: [UInt8] = []
            for word in [UInt32(1), mask, 0, UInt32(padded.count)] { withUnsafeBytes(of: word.littleEndian) { bytes += $0 } }
            return bytes + padded
        }
        func parse(_ bytes: [UInt8]) -> Set<String>? { bytes.withUnsafeBytes { InotifyNames.parse($0) } }
        #expect(parse(event(mask: 0x100, name: "event3") + event(mask: 0x004, name: "event3")) == ["event3"])
        #expect(parse(event(mask: 0x100, name: "event3") + event(mask: InotifyNames.queueOverflow, name: "")) == nil)
        #expect(parse(event(mask: 0x8000, name: "")) == nil)                          // IN_IGNORED: the watch went
        #expect(parse(Array(event(mask: 0x100, name: "event3").dropLast(4))) == nil)  // not whole events
        #expect(parse([]) == [])
    }
}
#endif
