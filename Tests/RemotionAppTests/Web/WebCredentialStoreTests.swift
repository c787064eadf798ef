import RemotionNetwork
import Foundation
import Synchronization
import Testing
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionTestSupport

@Suite struct WebCredentialStoreTests {
    let t0 = Date(timeIntervalSince1970: 1_760_000_000)

    func pair(_ desk: inout WebPairingDesk, _ name: String, at time: Date) throws -> WebPairing {
        try desk.redeem(secret: desk.open(now: time), name: name, now: time + 5)
    }

    @Test func verifyAcceptsOnlyTheRightCredential() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let store = WebCredentialStore(directory: dir.url.appendingPathComponent("remotion"))
        var desk = WebPairingDesk()
        let phone = try pair(&desk, "Phone", at: t0)
        let tablet = try pair(&desk, "Tablet", at: t0 + 60)
        try store.add(phone.device)
        try store.add(tablet.device)

        #expect(try store.verify(id: phone.device.id, credential: phone.credential) == phone.device)
        #expect(try store.verify(id: phone.device.id.uppercased(), credential: phone.credential) == phone.device)
        #expect(try store.verify(id: tablet.device.id, credential: tablet.credential) == tablet.device)
        #expect(try store.verify(id: phone.device.id, credential: tablet.credential) == nil)
        #expect(try store.verify(id: "0123456789abcdef", credential: phone.credential) == nil)
        var flipped = Base64URL.decode(phone.credential)!
        flipped[31] ^= 1
        #expect(try store.verify(id: phone.device.id, credential: Base64URL.encode(flipped)) == nil)
        #expect(try store.verify(id: phone.device.id, credential: String(phone.credential.dropLast(2))) == nil)
        #expect(try store.verify(id: phone.device.id, credential: "") == nil)
    }

    @Test func verificationComparesHashesThroughTheConstantTimeFunction() throws {
        var desk = WebPairingDesk()
        let phone = try pair(&desk, "Phone", at: t0)
        var calls: [([UInt8], [UInt8])] = []
        let ok = phone.device.accepts(credential: phone.credential) { stored, presented in
            calls.append((stored, presented))
            return ConstantTime.equal(stored, presented)
        }
        #expect(ok)
        #expect(calls.count == 1)
        #expect(calls[0].0 == Hex.decode(phone.device.credentialHash))   // digests, never the credential
        #expect(calls[0].1.count == 32 && calls[0].1 != Base64URL.decode(phone.credential))
        // The comparison itself: equal only when every byte is, whatever the position of a difference.
        let a = Array(repeating: UInt8(0xAB), count: 32)
        #expect(ConstantTime.equal(a, a))
        for i in [0, 15, 31] {
            var b = a; b[i] ^= 0x80
            #expect(!ConstantTime.equal(a, b))
        }
        #expect(!ConstantTime.equal(a, a.dropLast()))
        #expect(ConstantTime.equal([UInt8](), [UInt8]()))
    }

    @Test func revokeByIdOrNameAndRename() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let store = WebCredentialStore(directory: dir.url)
        var desk = WebPairingDesk()
        let a = try pair(&desk, "Phone", at: t0)
        let b = try pair(&desk, "Tablet", at: t0)
        let c = try pair(&desk, "Phone", at: t0)
        for p in [a, b, c] { try store.add(p.device) }

        #expect(try store.revoke("nobody") == [])
        #expect(try store.revoke(b.device.id.uppercased()) == [b.device])
        #expect(try store.verify(id: b.device.id, credential: b.credential) == nil)
        #expect(try store.revoke("Phone") == [a.device, c.device])
        #expect(try store.devices() == [])

        let d = try pair(&desk, "Old", at: t0)
        try store.add(d.device)
        let renamed = try store.rename(id: d.device.id, to: " New\u{7} name ")
        #expect(renamed?.name == "New name")
        #expect(try store.devices().map(\.name) == ["New name"])
        #expect(try store.verify(id: d.device.id, credential: d.credential)?.name == "New name")
        #expect(try store.rename(id: "ffffffffffffffff", to: "x") == nil)
    }

    @Test func persistsAcrossInstancesPrivatelyAndWithoutCredentials() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let data = dir.url.appendingPathComponent("share/remotion")
        var desk = WebPairingDesk()
        let pairs = [try pair(&desk, "Phone", at: t0), try pair(&desk, "Tablet \"2\"", at: t0 + 1)]
        do {
            let store = WebCredentialStore(directory: data)
            for p in pairs { try store.add(p.device) }
        }
        let reopened = WebCredentialStore(directory: data)
        #expect(try reopened.devices() == pairs.map(\.device))
        for p in pairs { #expect(try reopened.verify(id: p.device.id, credential: p.credential) == p.device) }

        let path = data.appendingPathComponent("web-controllers.json").path
        #expect(reopened.path == path)
        #expect(PrivateFiles.mode(of: path) == 0o600)
        #expect(PrivateFiles.mode(of: data.path) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).sorted() == ["web-controllers.json", "web-controllers.lock"],
                "the list and its lock (empty, 0600), no temporary file left")
        #expect(PrivateFiles.mode(of: data.appendingPathComponent("web-controllers.lock").path) == 0o600)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        for p in pairs {
            let raw = Base64URL.decode(p.credential)!
            #expect(!text.contains(p.credential))
            #expect(!text.contains(Hex.encode(raw)))
            #expect(!text.contains(Data(raw).base64EncodedString()))
            #expect(text.contains(p.device.credentialHash))
        }
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(json?.count == 2)
        #expect(Set(json?.first?.keys.map { $0 } ?? []) == ["id", "name", "credentialHash", "created"])
        #expect(json?.first?["created"] as? String == "2025-10-09T08:53:25Z")
    }

    @Test func corruptFileIsReportedInOneLine() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let store = WebCredentialStore(directory: dir.url)
        #expect(try store.devices() == [])
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path))
        do {
            _ = try store.devices()
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("\(store.path) is corrupt"))
        }
    }

    /// Add and revoke each read the file, changed their copy and wrote it
    /// back, so a pairing during a revoke could bring the revoked phone back. 200 rounds of a
    /// revoke racing an add (each on its own thread, its own lock descriptor, as two processes).
    @Test func aRevokeRacingAPairingAlwaysHolds() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let store = WebCredentialStore(directory: dir.url.appendingPathComponent("remotion"))
        var desk = WebPairingDesk()
        var resurrected = 0
        for round in 0..<200 {
            let victim = try pair(&desk, "victim \(round)", at: t0)
            let newcomer = try pair(&desk, "new \(round)", at: t0)
            try store.add(victim.device)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 0 { _ = try? store.revoke(victim.device.id) } else { try? store.add(newcomer.device) }
            }
            let ids = try store.devices().map(\.id)
            #expect(ids.contains(newcomer.device.id))
            if ids.contains(victim.device.id) { resurrected += 1 }
        }
        #expect(resurrected == 0, "a revoked phone came back \(resurrected) times in 200")
    }

    /// One live session per device across both transports.
    @Test func aNewerSessionOfADeviceEndsTheOlderOne() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let registry = try WebDeviceRegistry(store: WebCredentialStore(directory: dir.url.appendingPathComponent("remotion")))
        let ended = Mutex<[String]>([])
        let first = registry.claimSession("phone") { ended.withLock { $0.append("first") } }
        let other = registry.claimSession("tablet") { ended.withLock { $0.append("tablet") } }
        #expect(ended.withLock { $0 }.isEmpty)
        let second = registry.claimSession("phone") { ended.withLock { $0.append("second") } }
        #expect(ended.withLock { $0 } == ["first"], "the older session of the same device is told to end")
        registry.releaseSession("phone", token: first)          // the old one's release leaves the new claim
        _ = registry.claimSession("phone") { ended.withLock { $0.append("third") } }
        #expect(ended.withLock { $0 } == ["first", "second"])
        registry.releaseSession("tablet", token: other)
        #expect(second != first)
    }
}
