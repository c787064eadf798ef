import Foundation

/// One line of `remotion doctor`: what was checked, how it stands, and for a problem the
/// command that fixes it.
package struct DoctorLine: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable {
        /// ✓ nothing to do.
        case pass
        /// ! worth knowing, does not stop a phone (a fallback, a check that cannot be made).
        case warn
        /// ✗ stops a phone from connecting or the host from starting.
        case fail

        package var symbol: String {
            switch self {
            case .pass: "✓"
            case .warn: "!"
            case .fail: "✗"
            }
        }
    }

    /// A stable name for scripts: "firewall.controller", "avahi", "ports.web", …
    package var id: String
    package var status: Status
    package var message: String
    /// The command (or step) that fixes it; nil when there is nothing to do.
    package var fix: String?
    /// Facts for scripts (`--json`): the port, the firewall's table and chain, …
    package var details: [String: String]

    package init(_ id: String, _ status: Status, _ message: String, fix: String? = nil, details: [String: String] = [:]) {
        self.id = id
        self.status = status
        self.message = message
        self.fix = fix
        self.details = details
    }

    /// "✗ controller port 7474/udp …: fix: sudo nft …"
    package var text: String {
        "\(status.symbol) \(message)" + (fix.map { " — fix: \($0)" } ?? "")
    }
}

package struct DoctorReport: Sendable, Hashable {
    package var lines: [DoctorLine]

    package init(lines: [DoctorLine]) { self.lines = lines }

    /// Nothing stops a phone: no line failed.
    package var ok: Bool { !lines.contains { $0.status == .fail } }
    package var exitCode: Int32 { ok ? 0 : 1 }

    package var text: String {
        let failed = lines.filter { $0.status == .fail }.count
        let warned = lines.filter { $0.status == .warn }.count
        let summary = failed == 0
            ? "nothing stops a phone" + (warned > 0 ? " (\(warned) to know about)" : "")
            : "\(failed) problem\(failed == 1 ? "" : "s") stop\(failed == 1 ? "s" : "") a phone"
        return lines.map(\.text).joined(separator: "\n") + "\n" + summary + "\n"
    }

    /// {"ok":false,"checks":[{"id":…,"status":"fail","message":…,"fix":…,"details":{…}}]}
    package var json: String {
        let checks: [[String: Any]] = lines.map { line in
            var o: [String: Any] = ["id": line.id, "status": line.status.rawValue, "message": line.message,
                                    "details": line.details]
            o["fix"] = line.fix ?? NSNull()
            return o
        }
        let object: [String: Any] = ["ok": ok, "checks": checks]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
