import Logging
import Synchronization

/// What a part of the host said through its `Logger`, message by message ("LEVEL: text" for
/// warnings and worse, the text alone otherwise), for tests that check the words.
final class RecordingLog: Sendable {
    private let said = Mutex<[String]>([])
    var lines: [String] { said.withLock { $0 } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    private struct Handler: LogHandler {
        let log: RecordingLog
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let text = event.level >= .warning ? "\(event.level): \(event.message)" : "\(event.message)"
            log.said.withLock { $0.append(text) }
        }
    }
}
