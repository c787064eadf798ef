import Crypto
import Foundation
@testable import RemotionProtocol

enum TestError: Error, CustomStringConvertible {
    case vectorsNotFound([String])
    case badHex(String)
    var description: String {
        switch self {
        case .vectorsNotFound(let tried): "Noise test vectors not found; tried: \(tried.joined(separator: ", "))"
        case .badHex(let s): "bad hex string '\(s.prefix(20))'"
        }
    }
}

func hex(_ s: String) throws -> [UInt8] {
    let chars = Array(s.utf8)
    guard chars.count % 2 == 0 else { throw TestError.badHex(s) }
    var out: [UInt8] = []
    out.reserveCapacity(chars.count / 2)
    for i in stride(from: 0, to: chars.count, by: 2) {
        guard let b = UInt8(String(decoding: chars[i..<i + 2], as: UTF8.self), radix: 16) else { throw TestError.badHex(s) }
        out.append(b)
    }
    return out
}

func hexString(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

/// A key pair from a fixed seed byte, for deterministic tests.
func fixedKey(_ seed: UInt8) throws -> KeyPair {
    try KeyPair(privateKeyBytes: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) })
}

/// Deterministic "random" bytes (SplitMix64), for nonces and secrets in tests.
struct TestRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

/// Resolves ../shared/vectors/noise/<name> from the package root (found from
/// #filePath), falling back to /work/shared/vectors/noise/<name>.
func vectorFileURL(_ name: String, filePath: String = #filePath) throws -> URL {
    var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    var candidates: [URL] = []
    while dir.path != "/" {
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            candidates.append(dir.deletingLastPathComponent().appendingPathComponent("shared/vectors/noise/\(name)"))
            break
        }
        dir = dir.deletingLastPathComponent()
    }
    candidates.append(URL(fileURLWithPath: "/work/shared/vectors/noise/\(name)"))
    for c in candidates where FileManager.default.fileExists(atPath: c.path) { return c }
    throw TestError.vectorsNotFound(candidates.map(\.path))
}
