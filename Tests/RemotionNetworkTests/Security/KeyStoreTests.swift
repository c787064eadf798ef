import Foundation
import RemotionProtocol
import RemotionNetwork
import Testing

@Suite struct KeyStoreTests {
    func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func keysAndListsAreStoredPrivatelyAndReloaded() throws {
        let store = temporaryStore("keys")
        defer { removeStore(store) }
        let key = try store.hostKey()
        #expect(try store.hostKey().publicKey == key.publicKey, "the identity is stable across loads")
        let peer = try temporaryStore("peer").clientKey()
        let entry = try store.addPaired(name: "phone", publicKey: peer.publicKey)
        #expect(entry.fingerprint == KeyFingerprint.fingerprint(of: peer.publicKey))
        _ = try store.addKnownHost(publicKey: key.publicKey, address: "127.0.0.1:7474")
        #expect(try permissions(store.directory.path) == 0o700)
        for file in ["host.key", "paired.json", "known-hosts.json"] {
            #expect(try permissions(store.directory.appendingPathComponent(file).path) == 0o600, "\(file)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        #expect(try store.trustedKeys() == [peer.publicKey])
        #expect(try store.revoke("phone").count == 1)
        #expect(try store.trustedKeys().isEmpty)
        #expect(try store.revoke("nobody").isEmpty)
    }

    @Test func corruptFilesNameTheFile() throws {
        let store = temporaryStore("corrupt")
        defer { removeStore(store) }
        _ = try store.hostKey()
        let paired = store.directory.appendingPathComponent("paired.json")
        try Data("{not json".utf8).write(to: paired)
        #expect { try store.pairedControllers() } throws: { ($0 as? KeyStoreError)?.description.contains(paired.path) == true }
        let hostKey = store.directory.appendingPathComponent("host.key")
        try Data("!!!".utf8).write(to: hostKey)
        #expect { try store.hostKey() } throws: { ($0 as? KeyStoreError)?.description.contains(hostKey.path) == true }
    }
}
