extension DoctorChecks {
    /// Whether libei.so.1 loads and whether an EIS socket is handed to the host (what
    /// `--inject auto` needs to pick libei); on GNOME or KDE on Wayland without a socket, what
    /// to do. Nil when libei was not asked about (not Linux).
    package static func libei(_ facts: InjectorFacts) -> DoctorLine? {
        guard let library = facts.libei else { return nil }
        let soname = LibeiLibrary.soname
        var details = ["library": library.problem == nil ? "present" : "missing", "socket": facts.eisSocket ?? ""]
        if let problem = library.problem { details["problem"] = problem }
        switch (library.problem, facts.eisSocket) {
        case (nil, let eis?):
            return DoctorLine("libei", .pass, "\(soname) loads and an EIS socket is handed (\(eis)): --inject auto uses libei",
                              details: details)
        case (let problem?, let eis?):
            return DoctorLine("libei", .warn, "an EIS socket is handed (\(eis)) but \(problem): --inject auto does not use it",
                              fix: "install libei (the libei1 package on Debian 13 and Ubuntu 24.04)", details: details)
        case (nil, nil) where facts.portalReady:
            return DoctorLine("libei", .pass,
                              "\(soname) loads; no EIS socket is handed: --inject auto asks the RemoteDesktop portal for one (the portal line)",
                              details: details)
        case (nil, nil) where facts.eisDesktop != nil:
            return DoctorLine("libei", .warn,
                              "\(soname) loads but no EIS socket is handed to the host, so \(facts.eisDesktop!) on Wayland is reached through uinput",
                              fix: eisFix, details: details)
        case (let problem?, nil) where facts.eisDesktop != nil:
            return DoctorLine("libei", .warn,
                              "\(problem) and no EIS socket is handed, so \(facts.eisDesktop!) on Wayland is reached through uinput",
                              fix: "use uinput (the uinput line says how), or with libei (Debian 13) hand the host an EIS socket (docs/INJECTION.md, \"libei\")",
                              details: details)
        case (nil, nil):
            return DoctorLine("libei", .pass, "\(soname) loads; no EIS socket is handed (only GNOME and KDE on Wayland need one)",
                              details: details)
        case (let problem?, nil):
            return DoctorLine("libei", .pass, "\(problem) (only GNOME and KDE on Wayland use it)", details: details)
        }
    }

    /// What to do on GNOME or KDE on Wayland when libei is there but no socket is handed.
    static let eisFix = "start the host with \(InjectorFacts.eisDescriptorVariable)=N (a socket from the RemoteDesktop portal's ConnectToEIS) "
        + "or LIBEI_SOCKET=PATH, or use uinput (the uinput line says how); docs/INJECTION.md, \"libei\""
}

extension DoctorChecks {
    /// Whether the session bus has a RemoteDesktop portal that hands EIS sockets (version 2+,
    /// ConnectToEIS) and whether its restore token is stored (the next start asks nobody).
    /// Nil when the portal was not asked (not Linux). A `!` only on GNOME or KDE on Wayland,
    /// where the portal is the way in.
    package static func portal(_ facts: InjectorFacts, tokenStored: Bool, tokenPath: String) -> DoctorLine? {
        guard let portal = facts.portal else { return nil }
        var details = ["version": portal.version.map(String.init) ?? "", "token": tokenStored ? tokenPath : ""]
        if let problem = portal.problem { details["problem"] = problem }
        let token = tokenStored ? "its permission is stored (\(tokenPath)): the next start asks nobody"
            : "no permission is stored: the first start shows the desktop's dialog once"
        if portal.connectsToEIS {
            return DoctorLine("portal", .pass, "\(portal.summary) (ConnectToEIS); \(token)", details: details)
        }
        let why = portal.version == nil ? portal.summary : "\(portal.summary), and an EIS socket needs version 2"
        guard let desktop = facts.eisDesktop else {
            return DoctorLine("portal", .pass, "\(why) (only GNOME and KDE on Wayland use it)", details: details)
        }
        return DoctorLine("portal", .warn, "\(why), so \(desktop) on Wayland is reached through uinput",
                          fix: "install xdg-desktop-portal 1.18+ with the desktop's backend (GNOME 46+, Plasma 6.1+), "
                              + "or use uinput (the uinput line says how); docs/INJECTION.md, \"The RemoteDesktop portal\"",
                          details: details)
    }
}
