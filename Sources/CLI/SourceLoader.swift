import Foundation
import RemotionProtocol

/// Turns a `--source` flag into a motion source (reading a replay file from disk).
enum SourceLoader {
    static func load(_ text: String) throws -> any MotionSource {
        let spec: SourceSpec
        do { spec = try SourceSpec.parse(text) } catch { throw UserError(error.description) }
        switch spec {
        case let .synthetic(shape, noise, seed):
            return SyntheticMotion(shape: shape, noise: noise, seed: seed)
        case let .replay(path):
            guard let data = FileManager.default.contents(atPath: path), let csv = String(data: data, encoding: .utf8) else {
                throw UserError("--source replay:\(path): cannot read the file (does it exist, is it UTF-8 text?)")
            }
            do { return try ReplayTrace(csv: csv) } catch { throw UserError("--source replay:\(path): \(error)") }
        }
    }
}
