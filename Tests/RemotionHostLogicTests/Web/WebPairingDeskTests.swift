import Crypto
import Foundation
import Testing
import RemotionHostLogic
import RemotionProtocol

@Suite struct WebPairingDeskTests {
    let t0 = Date(timeIntervalSince1970: 1_760_000_000)

    @Test func secretIsBase64URLOf128RandomBits() {
        var desk = WebPairingDesk()
        var seen = Set<String>()
        for i in 0..<50 {
            let secret = desk.open(now: t0 + Double(i))
            #expect(secret.count == 22)
            #expect(secret.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            #expect(Base64URL.decode(secret)?.count == 16)
            seen.insert(secret)
        }
        #expect(seen.count == 50)
        #expect(desk.openCount(now: t0 + 50) == WebPairingDesk.maxOpen)
    }

    @Test func secretIsSingleUse() throws {
        var desk = WebPairingDesk()
        let secret = desk.open(now: t0)
        let paired = try desk.redeem(secret: secret, name: "Pixel 8", now: t0 + 10)
        #expect(paired.device.name == "Pixel 8")
        #expect(paired.device.created == t0 + 10)
        #expect(paired.device.id.count == 16 && Hex.decode(paired.device.id)?.count == 8)
        #expect(Base64URL.decode(paired.credential)?.count == 32)
        #expect(paired.device.credentialHash == Hex.encode(SHA256.hash(data: Base64URL.decode(paired.credential)!)))
        #expect(throws: WebPairingError.unknownSecret) { try desk.redeem(secret: secret, name: "again", now: t0 + 11) }
        #expect(desk.openCount(now: t0 + 11) == 0)
    }

    @Test func secretExpiresAfterTheWindow() throws {
        var desk = WebPairingDesk()
        let a = desk.open(now: t0)
        let b = desk.open(now: t0)
        #expect(desk.nextDeadline(now: t0) == t0 + 300)
        _ = try desk.redeem(secret: a, name: "in time", now: t0 + 299.9)
        #expect(throws: WebPairingError.unknownSecret) { try desk.redeem(secret: b, name: "late", now: t0 + 300) }
        var short = WebPairingDesk(window: 30)
        let c = short.open(now: t0)
        #expect(throws: WebPairingError.unknownSecret) { try short.redeem(secret: c, name: "late", now: t0 + 31) }
        #expect(short.nextDeadline(now: t0 + 31) == nil)
    }

    @Test func wrongSecretConsumesNothing() throws {
        var desk = WebPairingDesk()
        let a = desk.open(now: t0)
        let b = desk.open(now: t0 + 1)
        var rng = SplitMix64(seed: 7)
        let guess = Base64URL.encode(WebPairingDesk.randomBytes(16, using: &rng))
        for wrong in [guess, "", "not base64!", String(a.dropLast()), a + "A", b.uppercased() == b ? "x" : b.uppercased()] {
            #expect(throws: WebPairingError.unknownSecret) { try desk.redeem(secret: wrong, name: "x", now: t0 + 2) }
        }
        #expect(desk.openCount(now: t0 + 2) == 2)
        let pb = try desk.redeem(secret: b, name: "B", now: t0 + 3)
        let pa = try desk.redeem(secret: a, name: "A", now: t0 + 3)
        #expect(pa.device.id != pb.device.id && pa.credential != pb.credential)
    }

    @Test func oldestSecretIsDroppedPastTheLimit() throws {
        var desk = WebPairingDesk()
        let first = desk.open(now: t0)
        var last = ""
        for i in 1...WebPairingDesk.maxOpen { last = desk.open(now: t0 + Double(i)) }
        #expect(throws: WebPairingError.unknownSecret) { try desk.redeem(secret: first, name: "x", now: t0 + 20) }
        _ = try desk.redeem(secret: last, name: "x", now: t0 + 20)
        desk.closeAll()
        #expect(desk.openCount(now: t0 + 20) == 0)
    }

    @Test func namesAreCleaned() {
        #expect(WebDevice.cleanName("  Anna's\tiPhone \n") == "Anna's iPhone")
        #expect(WebDevice.cleanName("evil\u{1B}[31mred\u{07}") == "evil[31mred")
        #expect(WebDevice.cleanName("a\u{202E}b\u{200B}c\u{0000}d") == "abcd")
        #expect(WebDevice.cleanName(String(repeating: "é", count: 100)).count == 64)
        #expect(WebDevice.cleanName(String(repeating: "x", count: 63) + "   y").count == 63)
        #expect(WebDevice.cleanName(" \u{1}\u{2} ") == "Web controller")
        #expect(WebDevice.cleanName("📱 Tablet") == "📱 Tablet")
    }

    @Test func base64URLRoundTripsAndRejectsJunk() {
        var rng = SplitMix64(seed: 1)
        for n in 0..<40 {
            let bytes = WebPairingDesk.randomBytes(n, using: &rng)
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
            #expect(text == Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
        }
        #expect(Base64URL.decode("abc=") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("AA") == [0])
        #expect(Base64URL.decode("AB") == nil)   // non-zero padding bits
        #expect(Base64URL.decode("AC") == nil)   // non-zero padding bits
    }
}
