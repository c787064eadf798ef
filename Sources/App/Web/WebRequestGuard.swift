import HTTPTypes

/// Who may use the web controller server (docs/SECURITY.md, "The web controller"):
/// a request must name this host as it is on its certificate (Host: one of the LAN
/// addresses, `<name>.local`, localhost, with the port), which turns away DNS-rebinding
/// pages; a state-changing request (POST /api/pair, the WebSocket) must also come from
/// the page's own origin (Origin: https://<that Host>), which turns away every other
/// web page the phone's or the desktop's browser has open.
struct WebRequestGuard: Sendable {
    /// Host names the page may be reached at (lowercased; IPv6 in brackets). The port
    /// is not compared: a rebinding page cannot choose our name, whatever the port.
    let allowedHosts: Set<String>

    init(names: [String]) {
        allowedHosts = Set(names.map { name in
            let n = name.lowercased()
            return n.contains(":") && !n.hasPrefix("[") ? "[\(n)]" : n
        })
    }

    /// The host part of an authority ("192.168.1.2:7476" → "192.168.1.2", "[::1]:7476" → "[::1]").
    static func hostPart(_ authority: String) -> String {
        let a = authority.lowercased()
        if a.hasPrefix("["), let end = a.firstIndex(of: "]") { return String(a[...end]) }
        if let colon = a.lastIndex(of: ":"), a.filter({ $0 == ":" }).count == 1 { return String(a[..<colon]) }
        return a
    }

    enum Refusal: String, Error, Sendable {
        case badHost = "bad-host"
        case badOrigin = "bad-origin"
        case notJSON = "not-json"
    }

    func checkHost(_ authority: String?) -> Refusal? {
        guard let authority, allowedHosts.contains(Self.hostPart(authority)) else { return .badHost }
        return nil
    }

    /// Host and Origin for requests that act (pairing, the controller socket).
    func checkWrite(authority: String?, origin: String?) -> Refusal? {
        if let refused = checkHost(authority) { return refused }
        guard let origin, let authority, origin.lowercased() == "https://" + authority.lowercased() else { return .badOrigin }
        return nil
    }

    func check(_ request: HTTPRequest, write: Bool) -> Refusal? {
        write ? checkWrite(authority: request.authority, origin: request.headerFields[.origin])
              : checkHost(request.authority)
    }
}

