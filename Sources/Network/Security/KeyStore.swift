import Foundation
import Synchronization
import RemotionProtocol

public struct KeyStoreError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A controller this host accepts.
public struct PairedController: Codable, Sendable, Equatable {
    public var name: String
    public var publicKey: String   // base32
    public var fingerprint: String
    public var pairedAt: Date
    public var key: [UInt8]? { Base32.decode(publicKey).flatMap { $0.count == 32 ? $0 : nil } }
}

/// A host this controller paired with.
public struct KnownHost: Codable, Sendable, Equatable {
    public var fingerprint: String
    public var publicKey: String   // base32
    public var lastAddress: String
    public var pairedAt: Date
    public var key: [UInt8]? { Base32.decode(publicKey).flatMap { $0.count == 32 ? $0 : nil } }
}

/// Keys and trust on disk: `$XDG_DATA_HOME/remotion` (default `~/.local/share/remotion`),
/// directory 0700, files 0600, every write atomic (temporary file + rename).
///
///     host.key, client.key   base32 X25519 private keys
///     paired.json            [PairedController]   (host side)
///     known-hosts.json       [KnownHost]          (controller side)
public struct KeyStore: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public static func defaultDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("remotion")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/remotion")
    }

    func path(_ name: String) -> URL { directory.appendingPathComponent(name) }

    // MARK: static keys

    public func hostKey() throws -> KeyPair { try staticKey(file: "host.key") }
    public func clientKey() throws -> KeyPair { try staticKey(file: "client.key") }

    /// Loads the key, creating it (from the system CSPRNG) on first use: under the store's
    /// lock, so two processes starting at once (a host and `remotion pair --listen`) make one
    /// identity, not two where the second overwrites the key the first already uses.
    func staticKey(file: String) throws -> KeyPair {
        if let pair = try loadStaticKey(file: file) { return pair }
        return try changing {
            if let pair = try loadStaticKey(file: file) { return pair }
            var rng = SecureRandom()
            let pair = rng.keyPair()
            try write(Data((Base32.encode(pair.privateKeyBytes) + "\n").utf8), to: path(file))
            return pair
        }
    }

    private func loadStaticKey(file: String) throws -> KeyPair? {
        let url = path(file)
        if let data = try read(url) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let bytes = Base32.decode(text), let pair = try? KeyPair(privateKeyBytes: bytes) else {
                throw KeyStoreError("\(url.path) is corrupt: expected one base32 X25519 private key (delete it to make a new identity; paired peers must pair again)")
            }
            return pair
        }
        return nil
    }

    /// Every read-modify-write of the store's lists holds `keys.lock` (flock, across
    /// processes): a controller paired while `remotion devices --revoke` runs cannot bring the
    /// revoked one back, nor can two pairings lose one another.
    public func changing<T>(_ body: () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        try PrivateFiles.withExclusiveLock(directory: directory.path, name: "keys.lock") { () throws(PrivateFileError) in
            result = Result { try body() }
        }
        guard let result else { throw KeyStoreError("the key store's lock was not taken") }
        return try result.get()
    }

    // MARK: paired controllers (host)

    public func pairedControllers() throws -> [PairedController] { try decode([PairedController].self, "paired.json") ?? [] }

    public func savePaired(_ list: [PairedController]) throws { try encode(list, "paired.json") }

    public func addPaired(name: String, publicKey: [UInt8], now: Date = Date()) throws -> PairedController {
        let entry = PairedController(name: name, publicKey: Base32.encode(publicKey),
                                     fingerprint: KeyFingerprint.fingerprint(of: publicKey), pairedAt: now)
        try changing {
            var list = try pairedControllers().filter { $0.publicKey != entry.publicKey }
            list.append(entry)
            try savePaired(list)
        }
        return entry
    }

    /// Removes controllers whose fingerprint (or its prefix, dashes optional) or name matches.
    public func revoke(_ what: String) throws -> [PairedController] {
        try changing { try revokeLocked(what) }
    }

    private func revokeLocked(_ what: String) throws -> [PairedController] {
        let list = try pairedControllers()
        let wanted = what.uppercased().replacingOccurrences(of: "-", with: "")
        let matches = list.filter {
            $0.name == what || (!wanted.isEmpty && $0.fingerprint.replacingOccurrences(of: "-", with: "").hasPrefix(wanted))
        }
        guard !matches.isEmpty else { return [] }
        try savePaired(list.filter { !matches.contains($0) })
        return matches
    }

    public func trustedKeys() throws -> Set<[UInt8]> { Set(try pairedControllers().compactMap(\.key)) }

    // MARK: known hosts (controller)

    public func knownHosts() throws -> [KnownHost] { try decode([KnownHost].self, "known-hosts.json") ?? [] }

    public func addKnownHost(publicKey: [UInt8], address: String, now: Date = Date()) throws -> KnownHost {
        let entry = KnownHost(fingerprint: KeyFingerprint.fingerprint(of: publicKey), publicKey: Base32.encode(publicKey),
                              lastAddress: address, pairedAt: now)
        try changing {
            var list = try knownHosts().filter { $0.publicKey != entry.publicKey }
            list.append(entry)
            try encode(list, "known-hosts.json")
        }
        return entry
    }

    /// The host to use for `address`: the one last seen there, or the only known host.
    public func knownHost(for address: String, fingerprint: String? = nil) throws -> KnownHost? {
        let list = try knownHosts()
        if let fingerprint {
            let f = fingerprint.uppercased().replacingOccurrences(of: "-", with: "")
            return list.first { $0.fingerprint.replacingOccurrences(of: "-", with: "").hasPrefix(f) }
        }
        return list.last { $0.lastAddress == address } ?? (list.count == 1 ? list[0] : nil)
    }

    // MARK: files

    func read(_ url: URL) throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try Data(contentsOf: url) } catch { throw KeyStoreError("cannot read \(url.path): \(error.localizedDescription)") }
    }

    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        let url = path(name)
        guard let data = try read(url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do { return try decoder.decode(type, from: data) } catch {
            throw KeyStoreError("\(url.path) is corrupt (\(error)); fix or delete it")
        }
    }

    func encode<T: Encodable>(_ value: T, _ name: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(try encoder.encode(value), to: path(name))
    }

    /// Atomic write with 0600 permissions, in a 0700 directory, flushed before it replaces
    /// the old file: the one writer every key and credential goes through (PrivateFiles).
    func write(_ data: Data, to url: URL) throws {
        do {
            try PrivateFiles.write(Array(data), directory: directory.path, name: url.lastPathComponent)
        } catch {
            throw KeyStoreError(error.description)
        }
    }
}

/// The paired list as a `TrustSource`: re-read only when the file changed.
public final class StoreTrust: TrustSource {
    private let store: KeyStore
    private let stamp = Mutex<String?>(nil)

    public init(store: KeyStore) { self.store = store }

    public func keysIfChanged() -> Set<[UInt8]>? {
        let url = store.path("paired.json")
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let now = attributes.map { "\($0[.modificationDate] ?? "")/\($0[.size] ?? "")/\($0[.systemFileNumber] ?? "")" } ?? "none"
        let changed = stamp.withLock { old -> Bool in
            defer { old = now }
            return old != now
        }
        guard changed else { return nil }
        // A corrupt file while running: trust nobody rather than keep stale trust.
        return (try? store.trustedKeys()) ?? []
    }
}
