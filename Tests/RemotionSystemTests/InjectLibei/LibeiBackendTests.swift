#if os(Linux)
import Glibc
import RemotionProtocol
import RemotionSystem
import RemotionHostLogic
import Testing

/// Where the host's screen lands among an EIS compositor's regions (its monitors).
@Suite struct LibeiRegionTests {
    // A 1280x720 monitor with a 1920x1080 one to its right, tops aligned.
    let two = [LibeiRegion(x: 0, y: 0, width: 1280, height: 720), LibeiRegion(x: 1280, y: 0, width: 1920, height: 1080)]

    @Test func theScreenIsTheRegionsBoundingBox() {
        #expect(LibeiRegion.bounds(two) == ScreenGeometry(width: 3200, height: 1080))
        #expect(LibeiRegion.bounds([LibeiRegion(x: -1280, y: 200, width: 1280, height: 720)]) == ScreenGeometry(width: 1280, height: 720))
        #expect(LibeiRegion.bounds([]) == ScreenGeometry(width: 1, height: 1))
    }

    @Test func aPointInsideARegionIsKeptExactly() {
        #expect(LibeiRegion.place(x: 640, y: 360, in: two) == (640.0, 360.0))
        #expect(LibeiRegion.place(x: 2000, y: 1000, in: two) == (2000.0, 1000.0))
        // Offsets: a layout whose corner is not at 0,0 is shifted onto it.
        let shifted = [LibeiRegion(x: -1280, y: 200, width: 1280, height: 720)]
        #expect(LibeiRegion.place(x: 0, y: 0, in: shifted) == (-1280.0, 200.0))
    }

    @Test func aPointBetweenRegionsGoesToTheNearest() {
        // Below the small monitor, beside the tall one: EIS would drop it.
        #expect(LibeiRegion.place(x: 1200, y: 900, in: two) == (1280.0, 900.0))
        #expect(LibeiRegion.place(x: 100, y: 1000, in: two) == (100.0, 719.0))
        // Far outside every region (a huge coordinate): clamped, no trap.
        #expect(LibeiRegion.place(x: Int.max / 2, y: -5, in: two) == (3199.0, 0.0))
    }
}

/// The libei injector on a system without libei (this CI machine is Debian 12): one line
/// that says what is missing, the handed-down socket closed, no crash.
@Suite struct LibeiBackendTests {
    @Test func withoutLibeiTheOpenSaysSoAndClosesTheSocket() {
        // Close-on-exec, as the portal's descriptor is: a child another test spawns meanwhile
        // must not inherit this end and keep it open (recv would then say EAGAIN, not EOF).
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let error = #expect(throws: InjectionError.self) { _ = try LibeiBackend(source: .descriptor(pair[0])) }
        #expect(error?.kind == .unavailable && error?.backend == "libei")
        #expect(error?.message.contains("libei.so.1 is not installed") == true)
        // The descriptor was taken over and closed: the other end reads end-of-file (not
        // EAGAIN, which an end still open gives without blocking). Waited for (bounded): a
        // child spawned by another test between its fork and its exec holds a copy of every
        // descriptor, close-on-exec ones too, until the exec.
        var ready = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 5_000) == 1)
        var byte: UInt8 = 0
        #expect(recv(pair[1], &byte, 1, Int32(MSG_DONTWAIT)) == 0)
    }
}
#endif
