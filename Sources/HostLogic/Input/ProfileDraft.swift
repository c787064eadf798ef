import RemotionProtocol

/// A `[[profile]]` as a person edits it in the dashboard: the application, the kind of
/// controller it is limited to, and its entries in order (`[mapping]` keys, button letters,
/// `pad`) as text. It means nothing until `validated`, which puts it through the same rules as
/// the file (`FocusProfile.parse`); what passes is what `HostConfig.updatingProfiles` writes.
package struct ProfileDraft: Sendable, Hashable, Codable {
    package struct Entry: Sendable, Hashable, Codable {
        package var key: String
        package var value: String
        package init(key: String, value: String) { self.key = key; self.value = value }
    }

    package var app: String
    /// "phone", "dsu", "local-pad" or "udp"; nil or "": every kind.
    package var controller: String?
    package var entries: [Entry]

    package init(app: String, controller: String? = nil, entries: [Entry] = []) {
        self.app = app
        self.controller = controller
        self.entries = entries
    }

    /// The most profiles one list may hold, and entries one profile (there are fewer keys than that).
    package static let maxProfiles = 64
    package static let maxEntries = 64

    /// Validates a whole list: the profiles in this order, or the first problem as one line
    /// that names the profile (its number and app) and the field to fix.
    package static func validate(_ drafts: [ProfileDraft]) throws(ProfileEditError) -> FocusProfiles {
        guard drafts.count <= maxProfiles else {
            throw ProfileEditError("at most \(maxProfiles) profiles; remove \(drafts.count - maxProfiles)")
        }
        var list: [FocusProfile] = []
        for (index, draft) in drafts.enumerated() { list.append(try draft.validated(number: index + 1)) }
        return FocusProfiles(list)
    }

    /// This profile through `FocusProfile.parse`, the file's own rules; `number` (1-based) names
    /// it in errors. Button letters are written upper case; a key set twice is refused.
    package func validated(number: Int) throws(ProfileEditError) -> FocusProfile {
        let name = "profile \(number)" + (app.isEmpty ? "" : " (\(EchoedValue.quoted(app)))")
        func fail(_ text: String) -> ProfileEditError { ProfileEditError("\(name): \(text)") }
        guard entries.count <= Self.maxEntries else { throw fail("at most \(Self.maxEntries) entries") }
        // Lines stand for fields here: 1 the app, 2 the controller, 3… the entries in order.
        var raw = [ConfigEntry(key: "app", value: app, line: 1, quoted: true)]
        if let controller, !controller.isEmpty {
            raw.append(ConfigEntry(key: "controller", value: controller, line: 2, quoted: true))
        }
        var seen: Set<String> = []
        for (i, entry) in entries.enumerated() {
            var key = entry.key
            if let button = Button(letter: key) { key = button.letter }
            guard !key.isEmpty else {
                throw fail("entry \(i + 1) needs a key: a [mapping] setting, a button letter A to P, or pad")
            }
            guard key != "app", key != "controller" else {
                throw fail("\(key) is the profile's own field, not an entry")
            }
            guard seen.insert(key).inserted else { throw fail("\(EchoedValue.text(key)) is set twice; keep one") }
            raw.append(ConfigEntry(key: key, value: entry.value, line: 3 + i, quoted: true))
        }
        do throws(ConfigError) {
            return try FocusProfile.parse(raw, headerLine: 0, path: "")
        } catch {
            let prefix = "[[profile]] "
            let text = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw fail(text)
        }
    }
}

extension FocusProfile {
    /// The profile as the dashboard edits it.
    package var draft: ProfileDraft {
        ProfileDraft(app: app, controller: controller?.rawValue,
                     entries: entries.map { ProfileDraft.Entry(key: $0.key, value: $0.value) })
    }
}

/// A profile the dashboard sent that the file's rules refuse: one line naming the profile and
/// the field, e.g. `profile 2 ("beta"): sensitivity: 99 is out of range; expected …`.
package struct ProfileEditError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = EchoedValue.escapingControls(message) }
    package var description: String { message }
}
