import Foundation

/// A JSON value as the control channel carries it (a small, Sendable stand-in for
/// `Any` from JSONSerialization).
package enum ControlValue: Sendable, Equatable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case object([String: ControlValue])
    case array([ControlValue])
    case null

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ControlValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: ControlValue].self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .number(let n): try c.encode(n)
        case .bool(let b): try c.encode(b)
        case .object(let o): try c.encode(o)
        case .array(let a): try c.encode(a)
        case .null: try c.encodeNil()
        }
    }
}

/// One request on the host's control socket: a JSON object on one line with a
/// `command` and the command's fields, e.g. `{"command":"pair-window","seconds":120}`.
package struct ControlRequest: Sendable, Equatable {
    package var command: String
    package var fields: [String: ControlValue]

    package init(_ command: String, _ fields: [String: ControlValue] = [:]) {
        self.command = command
        self.fields = fields
    }

    package func string(_ key: String) -> String? {
        if case .string(let s)? = fields[key] { s } else { nil }
    }
    package func number(_ key: String) -> Double? {
        if case .number(let n)? = fields[key] { n } else { nil }
    }
    package func bool(_ key: String) -> Bool? {
        if case .bool(let b)? = fields[key] { b } else { nil }
    }

    /// The line to send (no newline).
    package var line: String {
        var object = fields
        object["command"] = .string(command)
        return ControlLine.encode(object)
    }

    /// Parses one line; nil when it is not a JSON object with a string `command`.
    package static func parse(_ line: String) -> ControlRequest? {
        guard var object = ControlLine.decode(line), case .string(let command)? = object["command"] else { return nil }
        object["command"] = nil
        return ControlRequest(command, object)
    }
}

/// The answer to one request: `{"ok":true, ...fields}` or `{"ok":false,"error":"..."}`.
package struct ControlResponse: Sendable, Equatable {
    package var ok: Bool
    package var fields: [String: ControlValue]

    package static func success(_ fields: [String: ControlValue] = [:]) -> ControlResponse {
        ControlResponse(ok: true, fields: fields)
    }
    package static func failure(_ message: String) -> ControlResponse {
        ControlResponse(ok: false, fields: ["error": .string(message)])
    }

    package var error: String? {
        if case .string(let s)? = fields["error"] { s } else { nil }
    }
    package func string(_ key: String) -> String? {
        if case .string(let s)? = fields[key] { s } else { nil }
    }
    package func number(_ key: String) -> Double? {
        if case .number(let n)? = fields[key] { n } else { nil }
    }
    package func bool(_ key: String) -> Bool? {
        if case .bool(let b)? = fields[key] { b } else { nil }
    }
    package func object(_ key: String) -> [String: ControlValue]? {
        if case .object(let o)? = fields[key] { o } else { nil }
    }

    package var line: String {
        var object = fields
        object["ok"] = .bool(ok)
        return ControlLine.encode(object)
    }

    package static func parse(_ line: String) -> ControlResponse? {
        guard var object = ControlLine.decode(line), case .bool(let ok)? = object["ok"] else { return nil }
        object["ok"] = nil
        return ControlResponse(ok: ok, fields: object)
    }
}

/// One JSON object per line (sorted keys, no newline inside: JSON escapes it).
enum ControlLine {
    /// The longest line either side accepts.
    static let maxLength = 64 * 1024

    static func encode(_ object: [String: ControlValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(object) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ line: String) -> [String: ControlValue]? {
        try? JSONDecoder().decode([String: ControlValue].self, from: Data(line.utf8))
    }
}
