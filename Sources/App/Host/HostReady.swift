import RemotionNetwork
import RemotionProtocol
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's one readiness signal: everything it bound, given once every listener is up
/// (the controllers' UDP port, the web controller page, the dashboard, the control socket,
/// the DSU server). Scripts and tests wait for it instead of reading human-readable lines.
///
/// `remotion host --ready-file PATH` writes it to PATH atomically (0600, a temporary file
/// renamed over PATH, so a reader never sees half of it); with `--json` the same object,
/// without its two secrets (`pairingURL`, `dashboardURL`), is also one line on stdout (the
/// journal, under the user unit). A part that is off is `null`. Fields (docs/ARCHITECTURE.md):
///
///     {"event":"ready","pid":4242,"udp":"127.0.0.1:40321","udpPort":40321,
///      "webPort":40322,"pairingURL":"https://…/#pair=…","dashboardPort":40323,
///      "controlSocket":"/…/control.sock","dsuServe":null}
package struct HostReady: Sendable, Equatable {
    package var pid: Int32 = getpid()
    /// Where the controllers' UDP socket listens, `address:port` as the status line shows it.
    package var udp: String
    package var udpPort: Int
    package var webPort: Int?
    /// The phone pairing link the host opened at start (one-time secret: the file is 0600).
    package var pairingURL: String?
    package var dashboardPort: Int?
    /// The dashboard's address with this start's token (file only, never on stdout).
    package var dashboardURL: String?
    package var controlSocket: String?
    package var dsuServe: String?
    package init(udp: String, udpPort: Int) {
        self.udp = udp
        self.udpPort = udpPort
    }

    /// One JSON object on one line, keys in a fixed order (the `--json` event: no pairing
    /// link, no dashboard token).
    package var json: String { json(withSecrets: false) }

    private func json(withSecrets: Bool) -> String {
        func number(_ v: Int?) -> String { v.map(String.init) ?? "null" }
        func text(_ v: String?) -> String { v.map(JSONText.quote) ?? "null" }
        return "{\"event\":\"ready\",\"pid\":\(pid),\"udp\":\(JSONText.quote(udp)),\"udpPort\":\(udpPort),"
            + "\"webPort\":\(number(webPort)),"
            + (withSecrets ? "\"pairingURL\":\(text(pairingURL))," : "")
            + "\"dashboardPort\":\(number(dashboardPort)),"
            + (withSecrets ? "\"dashboardURL\":\(text(dashboardURL))," : "")
            + "\"controlSocket\":\(text(controlSocket)),\"dsuServe\":\(text(dsuServe))}"
    }

    /// Writes the object, with the dashboard's tokened address, to `path` (atomically, 0600).
    package func write(to path: String) throws(PrivateFileError) {
        try PrivateFiles.replace(path, with: Array((json(withSecrets: true) + "\n").utf8))
    }
}
