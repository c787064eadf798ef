import RemotionProtocol

/// The application that has the desktop's focus, as a watcher reads it: X11's `WM_CLASS`
/// (instance and class), or a Wayland compositor's app_id (both the same).
package struct FocusedApp: Sendable, Hashable {
    package var instance: String
    package var className: String

    package init(instance: String, className: String) {
        self.instance = instance
        self.className = className
    }

    /// A Wayland app_id.
    package init(appID: String) { self.init(instance: appID, className: appID) }

    /// X11's `WM_CLASS` property as the server gives it: the instance and the class, each
    /// ended by a NUL (ICCCM 4.1.2.5). A class missing is the instance; nothing readable (no
    /// bytes, both empty) is nil. Only the first `FocusProfile.maxAppLength` bytes of each
    /// count: a longer name matches no profile anyway.
    package init?(wmClass bytes: some Collection<UInt8>) {
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        func text(_ i: Int) -> String {
            guard i < parts.count else { return "" }
            return String(decoding: parts[i].prefix(FocusProfile.maxAppLength + 1), as: UTF8.self)
        }
        let instance = text(0), className = text(1)
        guard !instance.isEmpty || !className.isEmpty else { return nil }
        self.init(instance: instance, className: className.isEmpty ? instance : className)
    }
}

/// The kinds of controller a `[[profile]]` may be limited to (`controller = "phone"`).
package enum ControllerKind: String, Sendable, Hashable, CaseIterable {
    /// The paired phone's web page.
    case phone
    /// A slot of a DSU server the host reads.
    case dsu
    /// A gamepad attached to this computer.
    case localPad = "local-pad"
    /// A datagram (Noise over UDP) controller: the app, `remotion client`.
    case udp

    package init<Address>(_ origin: ControllerOrigin<Address>) {
        switch origin {
        case .udp: self = .udp
        case .web: self = .phone
        case .dsu: self = .dsu
        case .localPad: self = .localPad
        }
    }
}

/// One `[[profile]]` of config.toml (docs/MOTION.md, "Profiles"): while `app` has the focus,
/// the controllers it applies to map with the host's profile changed by its entries.
///
///     [[profile]]
///     app = "beta"              # X11: WM_CLASS, instance or class; Wayland: the app_id
///     controller = "phone"      # optional: phone, dsu, local-pad or udp (default: every one)
///     mode = "fps"              # any [mapping] key
///     sensitivity = 2
///     "gyro_stick.target" = "right"
///     B = "key:space"           # a button letter: a [buttons] override
///     pad = "on"                # its virtual pad made ("off": taken away) while in force
package struct FocusProfile: Sendable, Hashable {
    package var app: String
    package var controller: ControllerKind?
    /// The `[mapping]` keys it sets, validated, in file order.
    package var mapping: [ConfigEntry]
    /// The buttons it maps differently (nil: `"none"`, the button does nothing).
    package var buttons: [Button: ButtonAction?]
    /// `pad = "on"` / `"off"`: the controller's virtual pad made or taken away while it is in
    /// force (nil: the pad stays as it is). Only on a host that makes pads (`--gamepad`).
    package var pad: Bool?
    /// The line of its `[[profile]]` header.
    package var line: Int
    /// Every entry but `app` and `controller` as written (mapping keys, button letters, `pad`),
    /// in file order: what the dashboard edits and `HostConfig.updatingProfiles` writes
    /// (`ProfileDraft`). A profile made in code has its mapping, then its buttons by letter.
    package var entries: [ConfigEntry]

    package init(app: String, controller: ControllerKind? = nil, mapping: [ConfigEntry] = [],
                 buttons: [Button: ButtonAction?] = [:], line: Int = 0) {
        self.app = app
        self.controller = controller
        self.mapping = mapping
        self.buttons = buttons
        self.line = line
        entries = mapping + buttons.sorted { $0.key < $1.key }.map {
            ConfigEntry(key: $0.key.letter, value: $0.value?.description ?? "none", line: line, quoted: true)
        }
    }

    /// Does it apply to `app` on a controller of `kind`? The name matches the instance or
    /// the class, ignoring ASCII case (xprop shows `"beta", "Beta"`).
    package func matches(_ app: FocusedApp, kind: ControllerKind) -> Bool {
        if let controller, controller != kind { return false }
        return Self.same(self.app, app.instance) || Self.same(self.app, app.className)
    }

    /// The profile in force over the host's: the host's settings and buttons with its entries.
    package func applied(over host: MappingProfile) -> MappingProfile {
        var settings = host.settings
        // Validated when parsed, on default settings; no key's check depends on another.
        for entry in mapping { try? settings.set(entry.key, to: entry.value) }
        var map = host.buttons
        for (button, action) in buttons { map[button] = action }
        return MappingProfile(settings: settings, buttons: map)
    }

    /// It sets the mode, the gyro stick's target (they win over what a controller's page chose).
    package var namesMode: Bool { mapping.contains { $0.key == "mode" } }
    package var namesGyroStick: Bool { mapping.contains { $0.key == "gyro_stick.target" } }

    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }

    /// Validates one `[[profile]]` element; errors name the file and line and say what to write.
    package static func parse(_ entries: [ConfigEntry], headerLine: Int, path: String) throws(ConfigError) -> FocusProfile {
        var profile = FocusProfile(app: "", line: headerLine)
        var app: String?
        var check = MappingSettings()
        for e in entries {
            func fail(_ text: String) -> ConfigError { ConfigError(path: path, line: e.line, "[[profile]] " + text) }
            switch e.key {
            case "app":
                guard e.quoted, !e.value.isEmpty, e.value.utf8.count <= maxAppLength else {
                    throw fail("app needs the application's name in quotes (WM_CLASS or app_id), e.g. app = \"firefox\"")
                }
                app = e.value
            case "pad":
                switch e.value {
                case "on", "true": profile.pad = true
                case "off", "false": profile.pad = false
                default: throw fail("pad must be \"on\" or \"off\"")
                }
                profile.entries.append(e)
            case "controller":
                guard e.quoted, let kind = ControllerKind(rawValue: e.value) else {
                    throw fail("controller must be \"phone\", \"dsu\", \"local-pad\" or \"udp\"")
                }
                profile.controller = kind
            default:
                if let button = Button(letter: e.key) {
                    guard e.quoted else { throw fail("button \(button) needs a quoted action such as \"left\" or \"key:Left\"") }
                    switch ButtonAction.parse(e.value) {
                    case .success(let action): profile.buttons.updateValue(action, forKey: button)
                    case .failure(let error): throw fail("button \(button): \(error.message)")
                    }
                    profile.entries.append(e)
                    continue
                }
                do throws(MappingSettingError) {
                    try check.set(e.key, to: e.value)
                } catch {
                    throw fail("\(error)")
                }
                profile.mapping.append(e)
                profile.entries.append(e)
            }
        }
        guard let app else {
            throw ConfigError(path: path, line: headerLine, "[[profile]] needs the application it is for, e.g. app = \"firefox\"")
        }
        profile.app = app
        return profile
    }

    /// The longest app name accepted (WM_CLASS strings are short; the file is not a dump).
    package static let maxAppLength = 256
}

/// Every `[[profile]]` in file order: the first that matches the focused application and a
/// controller's kind is the one in force for that controller.
package struct FocusProfiles: Sendable, Hashable {
    package var list: [FocusProfile]

    package init(_ list: [FocusProfile] = []) { self.list = list }

    package var isEmpty: Bool { list.isEmpty }

    /// The index of the profile in force for a controller of `kind` while `app` has the
    /// focus: the first that matches; nil (the host's profile) when none does or no app is
    /// focused (a window closed, the root window).
    package func match(_ app: FocusedApp?, kind: ControllerKind) -> Int? {
        guard let app else { return nil }
        return list.firstIndex { $0.matches(app, kind: kind) }
    }

    /// Profiles that can never be in force for some controller because an earlier one
    /// names the same app for it: (the later profile's line, the earlier's). `remotion
    /// doctor` and the host's start say so.
    package var shadowed: [(line: Int, by: Int)] {
        var out: [(Int, Int)] = []
        for (j, later) in list.enumerated() {
            let earlier = list[..<j].first {
                FocusProfile.same($0.app, later.app) && ($0.controller == nil || $0.controller == later.controller)
            }
            if let earlier { out.append((later.line, earlier.line)) }
        }
        return out
    }

    /// One line for each profile an earlier one hides, naming the file and its line, what
    /// to do (`remotion doctor`, the host's start).
    package func shadowNotes(path: String) -> [String] {
        shadowed.map {
            "\(path):\($0.line): [[profile]] never applies: the one at line \($0.by) names the same app first; "
                + "merge them, or limit the first to one kind with controller = \"…\""
        }
    }

    /// The profiles that match `app` for `kind`, in order (more than one: the first wins, and
    /// the status may say so).
    package func matches(_ app: FocusedApp, kind: ControllerKind) -> [Int] {
        list.indices.filter { list[$0].matches(app, kind: kind) }
    }
}
