#if os(Linux)
import Glibc
import RemotionApp
import RemotionHostLogic
import Testing

/// `--inject libei` needs an EIS socket handed down (REMOTION_EIS_FD) or a path
/// (LIBEI_SOCKET): without one, or with a descriptor that is no socket of this process,
/// one line says what to do.
@Suite struct LibeiSourceTests {
    func refusal(_ environment: [String: String]) -> InjectionError? {
        #expect(throws: InjectionError.self) { _ = try InjectorFactory.make(.libei, environment: environment) }
    }

    @Test func withoutASocketTheLineNamesBothWays() {
        let e = refusal([:])
        #expect(e?.kind == .unavailable && e?.backend == "libei")
        #expect(e?.message.contains("REMOTION_EIS_FD") == true && e?.message.contains("LIBEI_SOCKET") == true)
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
