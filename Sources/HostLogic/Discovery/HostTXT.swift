/// The TXT record a Remotion host publishes.
///
/// | key    | meaning                                                          |
/// |--------|------------------------------------------------------------------|
/// | `v`    | wire protocol version, decimal 0–65535 (required)                |
/// | `id`   | host identity; later the host key fingerprint (optional)         |
/// | `caps` | comma list of capability tokens, e.g. `attitude,gyro,buttons16`  |
///
/// Capability tokens are 1+ characters of `a-z`, `0-9`, `-`. Unknown keys are kept in `extra`
/// so that newer hosts stay readable by older clients.
package struct HostTXT: Hashable, Sendable {
    package var protocolVersion: UInt16
    package var hostID: String?
    package var capabilities: [String]
    package var extra: [String: String]

    package static let versionKey = "v"
    package static let hostIDKey = "id"
    package static let capabilitiesKey = "caps"

    package init(protocolVersion: UInt16, hostID: String? = nil, capabilities: [String] = [],
                extra: [String: String] = [:]) {
        self.protocolVersion = protocolVersion
        self.hostID = hostID
        self.capabilities = capabilities
        self.extra = extra
    }

    /// Validated record: `v`, `id`, `caps`, then the extra keys in sorted order.
    package func record() throws(TXTError) -> TXTRecord {
        var record = TXTRecord()
        try record.set(Self.versionKey, String(protocolVersion))
        if let hostID {
            guard !hostID.isEmpty else {
                throw .badValue(key: Self.hostIDKey, value: hostID, expected: "a non-empty host id, or no id entry")
            }
            try record.set(Self.hostIDKey, hostID)
        }
        if !capabilities.isEmpty {
            for token in capabilities where !Self.isCapabilityToken(token) {
                throw .badValue(key: Self.capabilitiesKey, value: token,
                                expected: "capability tokens of a-z, 0-9 and '-', e.g. buttons16")
            }
            try record.set(Self.capabilitiesKey, capabilities.joined(separator: ","))
        }
        for key in extra.keys.sorted() {
            let lower = key.lowercased()
            guard lower != Self.versionKey, lower != Self.hostIDKey, lower != Self.capabilitiesKey else {
                throw .badValue(key: key, value: extra[key]!, expected: "a key other than v, id, caps in extra")
            }
            try record.set(key, extra[key]!)
        }
        return record
    }

    /// `["v=1", "id=…", "caps=…"]`
    package func strings() throws(TXTError) -> [String] { try record().strings }

    package func dictionary() throws(TXTError) -> [String: String] { try record().dictionary }

    /// Decodes a received record; throws when `v` is missing or not a number or `caps` is malformed.
    package init(record: TXTRecord) throws(TXTError) {
        guard let version = record[Self.versionKey] else { throw .missingKey(Self.versionKey) }
        guard let number = UInt16(version) else {
            throw .badValue(key: Self.versionKey, value: version, expected: "a decimal number 0-65535")
        }
        protocolVersion = number
        let id = record[Self.hostIDKey]
        hostID = (id?.isEmpty ?? true) ? nil : id
        if let caps = record[Self.capabilitiesKey], !caps.isEmpty {
            let tokens = caps.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for token in tokens where !Self.isCapabilityToken(token) {
                throw .badValue(key: Self.capabilitiesKey, value: caps,
                                expected: "a comma list of tokens of a-z, 0-9 and '-'")
            }
            capabilities = tokens
        } else {
            capabilities = []
        }
        var rest = record.dictionary
        for key in [Self.versionKey, Self.hostIDKey, Self.capabilitiesKey] { rest[key] = nil }
        extra = rest
    }

    package init(dictionary: [String: String]) throws(TXTError) {
        try self.init(record: TXTRecord(dictionary))
    }

    package init(strings: [String]) throws(TXTError) {
        try self.init(record: TXTRecord(decoding: strings))
    }

    static func isCapabilityToken(_ token: String) -> Bool {
        !token.isEmpty && token.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || $0.isASCIIDigit || $0 == "-"
        }
    }
}
