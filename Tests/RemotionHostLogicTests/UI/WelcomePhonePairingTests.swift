import RemotionHostLogic
import Testing

/// The welcome view shows the phone pairing code whole, or says how to see it.
@Suite struct WelcomePhonePairingTests {
    let qr = ["█▀▀▀▀▀█ ▄▀▄", "█ ███ █ ▀▄█", "▀▀▀▀▀▀▀ ▀ ▀"]
    let url = "https://192.168.1.20:7476/#pair=AbC&fp=1A2B"

    func lines(width: Int, qr: [String]? = nil) throws -> [String] {
        var host = HostStatus(name: "studio", addresses: ["192.168.1.20"], port: 7474)
        host.phonePairing = .init(url: url, qrLines: qr ?? self.qr)
        var font = try PixelFont.standard()
        return WelcomeView(width: width).lines(for: host, font: &font)
    }

    @Test func theCodeAndTheLinkAreShownWhole() throws {
        let out = try lines(width: 100)
        let first = try #require(out.firstIndex(of: WelcomeView.indent + qr[0]))
        #expect(Array(out[first..<first + qr.count]) == qr.map { WelcomeView.indent + $0 })
        #expect(out.contains(WelcomeView.indent + url))
        #expect(out.last == WelcomeView.indent + "waiting for controllers…")
    }

    @Test func aLinkLongerThanTheLineIsSplitNotCut() throws {
        let out = try lines(width: 30)
        let pieces = out.filter { $0.hasPrefix(WelcomeView.indent + "https") || $0.contains("pair=") || $0.contains("fp=") }
        #expect(pieces.map { $0.dropFirst(WelcomeView.indent.count) }.joined() == url)
        #expect(out.allSatisfy { $0.count <= 30 })
    }

    @Test func aTerminalTooNarrowForTheCodeGetsTheLinkInstead() throws {
        let wide = qr.map { $0 + $0 + $0 }          // 35 columns
        let out = try lines(width: 30, qr: wide)
        #expect(!out.contains { $0.contains("█▀▀") })
        #expect(out.contains { $0.contains("(widen") })   // truncated to the width, as every line
    }
}
