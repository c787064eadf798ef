#if os(Linux)
import Glibc
import RemotionApp
import RemotionHostLogic
import RemotionSystem
import Testing

/// `--inject libei` needs an EIS socket handed down (REMOTION_EIS_FD) or a path
/// (LIBEI_SOCKET): without one, or with a descriptor that is no socket of this process,
/// one line says what to do.
@Suite struct LibeiSourceTests {
    func refusal(_ environment: [String: String]) -> InjectionError? {
        #expect(throws: InjectionError.self) { _ = try InjectorFactory.make(.libei, environment: environment) }
    }

    /// Without a socket the host asks the RemoteDesktop portal, but only where libei loads (no
    /// consent for an injector that cannot open): this machine (Debian 12) has no libei, and
    /// the one line says that, without a dialog.
    @Test func withoutASocketAndWithoutLibeiThePortalIsNotAsked() {
        let e = refusal([:])
        #expect(e?.kind == .unavailable && e?.backend == "libei")
        if LibeiBackend.libraryProblem() != nil {
            #expect(e?.message.contains("libei.so.1") == true)
        } else {
            // Where libei loads: the portal is asked on the bus the environment names, none here.
            #expect(e?.message.contains("no session bus") == true)
        }
    }

    @Test func aDescriptorThatIsNoSocketIsRefused() {
        for bad in ["abc", "-1", "1", "99999999999", "987"] {
            let e = refusal(["REMOTION_EIS_FD": bad])
            #expect(e?.message.contains("is not an open socket of this process") == true, "\(bad)")
        }
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        #expect(refusal(["REMOTION_EIS_FD": "\(fd)"])?.message.contains("is not an open socket") == true)
    }
}
#endif
