import RemotionHostLogic
import Testing

/// `--inject auto` asking the RemoteDesktop portal for an EIS socket on GNOME and KDE, its
/// fallback when the portal gives none, and `remotion doctor`'s portal line.
@Suite struct InjectorSelectionPortalTests {
    let gnome = ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME"]
    let present = LibeiLibrary(problem: nil)
    let v2 = PortalFacts(version: 2, problem: nil)

    func facts(_ env: [String: String], libei: LibeiLibrary?, portal: PortalFacts?,
               uinput: UInputAccess = .writable) -> InjectorFacts {
        InjectorFacts(environment: env, uinput: uinput, platform: .linux, libei: libei, portal: portal)
    }

    @Test func gnomeOnWaylandWithLibeiAndAPortalOfVersionTwoAsksThePortal() {
        let d = InjectorSelection.decide(.auto, facts(gnome, libei: present, portal: v2))
        #expect(d.backend == .libei && d.fix == nil)
        #expect(d.reason.contains("GNOME on Wayland") && d.reason.contains("version 2") && !d.reason.contains("\n"))
        let kde = InjectorSelection.decide(.auto, facts(gnome.merging(["XDG_CURRENT_DESKTOP": "KDE"]) { $1 }, libei: present,
                                                         portal: PortalFacts(version: 5, problem: nil)))
        #expect(kde.backend == .libei)
    }

    @Test func withoutAnyOfThemTheChoiceIsAsBefore() {
        #expect(InjectorSelection.decide(.auto, facts(gnome, libei: present, portal: PortalFacts(version: 1, problem: nil))).backend == .uinput)
        #expect(InjectorSelection.decide(.auto, facts(gnome, libei: present, portal: PortalFacts(version: nil, problem: "no session bus"))).backend == .uinput)
        #expect(InjectorSelection.decide(.auto, facts(gnome, libei: LibeiLibrary(problem: "libei.so.1 is not installed"), portal: v2)).backend == .uinput)
        #expect(InjectorSelection.decide(.auto, facts(gnome, libei: present, portal: nil)).backend == .uinput)
        // Not GNOME or KDE, or not Wayland: the portal is not the way.
        let sway = gnome.merging(["XDG_CURRENT_DESKTOP": "sway"]) { $1 }
        #expect(InjectorSelection.decide(.auto, facts(sway, libei: present, portal: v2)).backend == .uinput)
        #expect(InjectorSelection.decide(.auto, facts(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"], libei: present, portal: v2)).backend == .uinput)
        // A handed socket wins and names itself.
        let handed = InjectorSelection.decide(.auto, facts(gnome.merging(["REMOTION_EIS_FD": "5"]) { $1 }, libei: present, portal: v2))
        #expect(handed.backend == .libei && handed.reason.contains("REMOTION_EIS_FD=5"))
    }

    @Test func thePortalsRefusalFallsBackAndSaysWhyInTheSameLine() {
        let f = facts(gnome, libei: present, portal: v2)
        let d = InjectorSelection.afterPortalFailure(f, why: PortalFailure.cancelled.line)
        #expect(d.backend == .uinput && d.fix == nil)
        #expect(d.reason.contains("the RemoteDesktop portal gave no EIS socket") && d.reason.contains("not allowed"))
        #expect(!d.reason.contains("\n"))
        // Without uinput the fallback has no way in: the fix says so.
        let none = InjectorSelection.afterPortalFailure(facts(gnome, libei: present, portal: v2, uinput: .notWritable), why: "x")
        #expect(none.fix?.hasPrefix("the RemoteDesktop portal gave no EIS socket: x; and ") == true)
    }

    @Test func doctorSaysWhetherThePortalHandsSocketsAndWhetherATokenIsStored() throws {
        let ready = try #require(DoctorChecks.portal(facts(gnome, libei: present, portal: v2), tokenStored: true, tokenPath: "/d/portal-restore-token"))
        #expect(ready.status == .pass && ready.message.contains("version 2") && ready.message.contains("/d/portal-restore-token"))
        let first = try #require(DoctorChecks.portal(facts(gnome, libei: present, portal: v2), tokenStored: false, tokenPath: "/d/t"))
        #expect(first.status == .pass && first.message.contains("dialog once"))
        let old = try #require(DoctorChecks.portal(facts(gnome, libei: present, portal: PortalFacts(version: 1, problem: nil)),
                                                   tokenStored: false, tokenPath: "/d/t"))
        #expect(old.status == .warn && old.message.contains("version 2") && old.fix != nil)
        let missing = try #require(DoctorChecks.portal(facts(["DISPLAY": ":0"], libei: present, portal: PortalFacts(version: nil, problem: "no session bus")),
                                                       tokenStored: false, tokenPath: "/d/t"))
        #expect(missing.status == .pass && missing.message.contains("no session bus"))
        #expect(DoctorChecks.portal(facts(gnome, libei: present, portal: nil), tokenStored: false, tokenPath: "/d/t") == nil)
        // The libei line points at the portal when auto will ask it.
        let libei = try #require(DoctorChecks.libei(facts(gnome, libei: present, portal: v2)))
        #expect(libei.status == .pass && libei.message.contains("asks the RemoteDesktop portal"))
    }
}
