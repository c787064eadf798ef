
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file-system failure, as one line for the user: "cannot write <path>: <reason>".
package struct PrivateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }

    static func errno(_ verb: String, _ path: String, _ code: Int32) -> PrivateFileError {
        PrivateFileError("cannot \(verb) \(path): \(String(cString: strerror(code)))")
    }
}

/// Secrets on disk the way the project's KeyStore keeps them: the directory is 0700,
/// every file 0600 from the moment it exists (created with O_EXCL under that mode,
/// never chmod-ed afterwards), written whole to a temporary file, flushed, then renamed
/// over the old one, so a reader sees either the old or the new contents.
package enum PrivateFiles {
    /// Creates `directory` (and its parents) if needed and sets it to 0700.
    package static func prepareDirectory(_ directory: String) throws(PrivateFileError) {
        var isDirectory = false
        var st = stat()
        if stat(directory, &st) == 0 {
            isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
            guard isDirectory else { throw PrivateFileError("cannot create \(directory): a file of that name is in the way") }
        } else {
            let parent = parentPath(of: directory)
            if parent != directory, !parent.isEmpty, stat(parent, &st) != 0 {
                try prepareParents(parent)
            }
            if mkdir(directory, 0o700) != 0, cErrno() != EEXIST {
                throw .errno("create", directory, cErrno())
            }
        }
        if chmod(directory, 0o700) != 0 { throw .errno("set permissions of", directory, cErrno()) }
    }

    /// Parents are made with 0755 like `mkdir -p`; only the data directory itself is private.
    private static func prepareParents(_ path: String) throws(PrivateFileError) {
        var st = stat()
        guard stat(path, &st) != 0 else { return }
        let parent = parentPath(of: path)
        if parent != path, !parent.isEmpty { try prepareParents(parent) }
        if mkdir(path, 0o755) != 0, cErrno() != EEXIST { throw .errno("create", path, cErrno()) }
    }

    static func parentPath(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The file's bytes, or nil when it does not exist.
    package static func read(_ path: String) throws(PrivateFileError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = cErrno()
            if code == ENOENT { return nil }
            throw .errno("read", path, code)
        }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { cRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if cErrno() == EINTR { continue }
                throw .errno("read", path, cErrno())
            }
            if n == 0 { return out }
            out += chunk[0..<n]
            guard out.count <= 16 << 20 else { throw PrivateFileError("cannot read \(path): larger than 16 MiB") }
        }
    }

    /// Writes `bytes` to `directory/name` atomically with mode 0600 (directory made 0700).
    package static func write(_ bytes: [UInt8], directory: String, name: String) throws(PrivateFileError) {
        try prepareDirectory(directory)
        try replace(directory + "/" + name, with: bytes)
    }

    /// Writes `bytes` to `path` atomically with mode 0600, leaving its directory as it is
    /// (for files the user names, such as `--ready-file`, whose directory is not ours).
    package static func replace(_ path: String, with bytes: [UInt8]) throws(PrivateFileError) {
        let directory = parentPath(of: path)
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let temp = directory + "/.\(name).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .errno("write", path, cErrno()) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { cWrite(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if cErrno() == EINTR { continue }
                let code = cErrno()
                close(fd); unlink(temp)
                throw .errno("write", path, code)
            }
            written += n
        }
        if fsync(fd) != 0 {
            let code = cErrno()
            close(fd); unlink(temp)
            throw .errno("write", path, code)
        }
        close(fd)
        guard rename(temp, path) == 0 else {
            let code = cErrno()
            unlink(temp)
            throw .errno("write", path, code)
        }
    }

    /// Runs `body` holding an exclusive lock on `directory/name` (a 0600 lock file, flock):
    /// a read-modify-write of a file beside it cannot interleave with another one, in this
    /// process or another (the host pairing a phone while `remotion devices --revoke` runs).
    /// The lock goes with the descriptor, so a process that dies releases it.
    package static func withExclusiveLock<T>(directory: String, name: String,
                                             _ body: () throws(PrivateFileError) -> T) throws(PrivateFileError) -> T {
        try prepareDirectory(directory)
        let path = directory + "/" + name
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .errno("lock", path, cErrno()) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard cErrno() == EINTR else { throw .errno("lock", path, cErrno()) }
        }
        return try body()
    }

    /// The permission bits of `path` (for tests and diagnostics), nil if it does not exist.
    package static func mode(of path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode) & 0o7777
    }
}

// errno, read(2) and write(2) under names that do not clash with the methods above.
@inline(__always) private func cErrno() -> Int32 { errno }
@inline(__always) private func cRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { read(fd, p, n) }
@inline(__always) private func cWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { write(fd, p, n) }
