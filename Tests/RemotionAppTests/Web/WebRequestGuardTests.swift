@testable import RemotionApp
import Testing

/// Who may use the web controller server: Host must be one of the certificate's names,
/// and acting requests must come from the page's own origin.
@Suite struct WebRequestGuardTests {
    let guardian = WebRequestGuard(names: ["192.168.1.20", "fe80::1", "studio.local", "localhost"])

    @Test func hostMustBeOneOfTheCertificatesNames() {
        #expect(guardian.checkHost("192.168.1.20:7476") == nil)
        #expect(guardian.checkHost("[fe80::1]:7476") == nil)
        #expect(guardian.checkHost("Studio.Local:7476") == nil)
        #expect(guardian.checkHost("evil.example:7476") == .badHost)     // DNS rebinding
        #expect(guardian.checkHost("192.168.1.21:7476") == .badHost)
        #expect(guardian.checkHost(nil) == .badHost)
    }

    @Test func actingRequestsNeedThePagesOwnOrigin() {
        #expect(guardian.checkWrite(authority: "192.168.1.20:7476", origin: "https://192.168.1.20:7476") == nil)
        #expect(guardian.checkWrite(authority: "192.168.1.20:7476", origin: "https://evil.example") == .badOrigin)
        #expect(guardian.checkWrite(authority: "192.168.1.20:7476", origin: "http://192.168.1.20:7476") == .badOrigin)
        #expect(guardian.checkWrite(authority: "192.168.1.20:7476", origin: nil) == .badOrigin)
        #expect(guardian.checkWrite(authority: "evil.example:7476", origin: "https://evil.example:7476") == .badHost)
    }
}
