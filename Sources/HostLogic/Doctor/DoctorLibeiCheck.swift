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
