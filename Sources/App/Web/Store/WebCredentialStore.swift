import RemotionNetwork
import RemotionHostLogic
import Foundation

/// The paired web controllers on disk: `web-controllers.json` in the data directory
/// (0700), a JSON array of `WebDevice`, mode 0600, replaced atomically on every change.
/// It holds credential hashes only; the credentials themselves live on the phones.
package struct WebCredentialStore: Sendable {
    package static let fileName = "web-controllers.json"
    package let directory: URL

    package init(directory: URL) { self.directory = directory }

    package var path: String { directory.appendingPathComponent(Self.fileName).path }

    /// Every paired device, oldest first ([] when the file does not exist).
    package func devices() throws(PrivateFileError) -> [WebDevice] {
        guard let bytes = try PrivateFiles.read(path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do { return try decoder.decode([WebDevice].self, from: Data(bytes)) } catch {
            throw PrivateFileError("\(path) is corrupt (\(error)); fix or delete it (every web controller must then pair again)")
        }
    }

    package func save(_ devices: [WebDevice]) throws(PrivateFileError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(devices) } catch { throw PrivateFileError("cannot write \(path): \(error)") }
        try PrivateFiles.write(Array(data) + [0x0A], directory: directory.path, name: Self.fileName)
    }

    /// Every change is a read-modify-write under one lock (`web-controllers.lock`): a phone
    /// paired while `remotion devices --revoke` runs cannot bring the revoked one back.
    private func changing<T>(_ body: () throws(PrivateFileError) -> T) throws(PrivateFileError) -> T {
        try PrivateFiles.withExclusiveLock(directory: directory.path, name: "web-controllers.lock", body)
    }

    /// Stores a newly paired device (replacing one with the same id).
    package func add(_ device: WebDevice) throws(PrivateFileError) {
        try changing { () throws(PrivateFileError) in
            var list = try devices().filter { $0.id != device.id }
            list.append(device)
            try save(list)
        }
    }

    /// The device whose id is `id` and whose credential hash matches, else nil.
    package func verify(id: String, credential: String) throws(PrivateFileError) -> WebDevice? {
        Self.verify(id: id, credential: credential, in: try devices())
    }

    /// `verify` on a list already in memory (what a running host checks each hello against).
    package static func verify(id: String, credential: String, in devices: [WebDevice]) -> WebDevice? {
        guard let device = devices.first(where: { $0.id == id.lowercased() }) else { return nil }
        return device.accepts(credential: credential) ? device : nil
    }

    /// Removes the devices whose id (any case) or name is exactly `what`; returns them.
    package func revoke(_ what: String) throws(PrivateFileError) -> [WebDevice] {
        try changing { () throws(PrivateFileError) in
            let list = try devices()
            let wanted = what.trimmingCharacters(in: .whitespaces)
            let matches = list.filter { $0.id == wanted.lowercased() || $0.name == wanted }
            guard !matches.isEmpty else { return [] }
            try save(list.filter { !matches.contains($0) })
            return matches
        }
    }

    /// Lets the devices whose id or name is `what` type, or not; returns them.
    package func setTyping(_ what: String, allowed: Bool) throws(PrivateFileError) -> [WebDevice] {
        try changing { () throws(PrivateFileError) in
            var list = try devices()
            let wanted = what.trimmingCharacters(in: .whitespaces)
            var changed: [WebDevice] = []
            for i in list.indices where list[i].id == wanted.lowercased() || list[i].name == wanted {
                list[i].typing = allowed
                changed.append(list[i])
            }
            if !changed.isEmpty { try save(list) }
            return changed
        }
    }

    /// Removes the device whose id is exactly `id` (never one merely named so); returns it.
    package func revoke(id: String) throws(PrivateFileError) -> WebDevice? {
        try changing { () throws(PrivateFileError) in
            let list = try devices()
            guard let match = list.first(where: { $0.id == id }) else { return nil }
            try save(list.filter { $0.id != id })
            return match
        }
    }

    /// Lets the device whose id is exactly `id` type, or not; returns it.
    package func setTyping(id: String, allowed: Bool) throws(PrivateFileError) -> WebDevice? {
        try changing { () throws(PrivateFileError) in
            var list = try devices()
            guard let i = list.firstIndex(where: { $0.id == id }) else { return nil }
            list[i].typing = allowed
            try save(list)
            return list[i]
        }
    }

    /// Renames the device with id `id` (the new name cleaned as when pairing); nil if unknown.
    package func rename(id: String, to name: String) throws(PrivateFileError) -> WebDevice? {
        try changing { () throws(PrivateFileError) in
            var list = try devices()
            guard let i = list.firstIndex(where: { $0.id == id.lowercased() }) else { return nil }
            list[i].name = WebDevice.cleanName(name)
            try save(list)
            return list[i]
        }
    }
}
