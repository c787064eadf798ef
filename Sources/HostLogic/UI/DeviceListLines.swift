/// The lines `remotion devices` and `remotion pair` print about controllers and phones
/// (pure). Names come from outside — a UDP controller names itself when it pairs, a phone
/// when it asks — and so do addresses: each is printed without control characters
/// (`TextFormat.sanitize`), so a name cannot move the cursor, clear the screen or retitle
/// the terminal of the person reading the list. Fingerprints, ids and dates are the host's.
package enum DeviceListLines {
    package static func pairedController(fingerprint: String, name: String, pairedAt: String) -> String {
        "  \(fingerprint)  \(TextFormat.sanitize(name))  paired \(pairedAt)"
    }

    package static func webController(id: String, name: String, pairedAt: String, mayType: Bool) -> String {
        "  \(id)  \(TextFormat.sanitize(name))  paired \(pairedAt)\(mayType ? "" : "  (may not type)")"
    }

    package static func waitingPhone(reference: String, name: String, address: String, seconds: Int) -> String {
        "  \(reference)  '\(TextFormat.sanitize(name))' at \(TextFormat.sanitize(address))  (\(seconds) s left)"
    }

    package static func typing(id: String, name: String, mayType: Bool) -> String {
        "web controller '\(TextFormat.sanitize(name))' \(id) \(mayType ? "may type" : "may not type")"
    }

    package static func revokedController(name: String, fingerprint: String) -> String {
        "revoked '\(TextFormat.sanitize(name))' \(fingerprint)"
    }

    package static func revokedWebController(name: String, id: String) -> String {
        "revoked web controller '\(TextFormat.sanitize(name))' \(id) (a running host drops it within a second)"
    }

    package static func pairedNow(name: String, fingerprint: String) -> String {
        "paired controller '\(TextFormat.sanitize(name))' \(fingerprint)"
    }

    /// A phone the person is asked about: `'NAME' at ADDRESS`.
    package static func phone(name: String, address: String) -> String {
        "'\(TextFormat.sanitize(name))' at \(TextFormat.sanitize(address))"
    }
}
