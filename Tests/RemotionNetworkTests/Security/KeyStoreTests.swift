import Foundation
import Synchronization
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
        let peerStore = temporaryStore("peer")
        defer { removeStore(peerStore) }
        let peer = try peerStore.clientKey()
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

/// Two writers at once — the host pairing a controller while `remotion devices --revoke`
/// or a second `remotion pair --listen` runs — go through one lock (`keys.lock`, flock: it
/// excludes across processes, and between two descriptors in one process, as here).
@Suite struct KeyStoreLockTests {
    @Test func concurrentPairingsLoseNothingAndARevocationDoesNotComeBack() throws {
        let store = temporaryStore("lock")
        defer { removeStore(store) }
        let keys = (0..<80).map { _ in (0..<32).map { _ in UInt8.random(in: 0...255) } }
        // Four writers, 20 pairings each, beside a revoker that removes the first writer's as
        // they come (each revocation a read-modify-write of the same file).
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            let mine = KeyStore(directory: store.directory)
            if worker == 4 {
                for _ in 0..<3 { for i in 0..<20 { _ = try? mine.revoke("w0-\(i)") } }
                return
            }
            for i in 0..<20 { _ = try? mine.addPaired(name: "w\(worker)-\(i)", publicKey: keys[worker * 20 + i]) }
        }
        let names = Set(try store.pairedControllers().map(\.name))
        for worker in 1..<4 {
            #expect((0..<20).allSatisfy { names.contains("w\(worker)-\($0)") }, "writer \(worker)'s 20 pairings all kept")
        }
        #expect(names.subtracting((0..<20).map { "w0-\($0)" }).count == 60, "nothing else, nothing twice")
    }

    @Test func processesStartingAtOnceMakeOneHostKey() throws {
        let store = temporaryStore("one-key")
        defer { removeStore(store) }
        let made = Mutex<Set<[UInt8]>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let key = try? KeyStore(directory: store.directory).hostKey().publicKey { made.withLock { _ = $0.insert(key) } }
        }
        #expect(made.withLock { $0 } == [try store.hostKey().publicKey], "one identity, the one on disk")
    }
}
