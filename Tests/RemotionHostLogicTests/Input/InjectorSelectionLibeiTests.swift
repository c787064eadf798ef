import RemotionHostLogic
import Testing

/// `--inject auto` with an EIS socket handed to the host, and `remotion doctor`'s libei line.
@Suite struct InjectorSelectionLibeiTests {
    let gnome = ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]
    let present = LibeiLibrary(problem: nil)
    let missing = LibeiLibrary(problem: "libei.so.1 is not installed (libei comes with Debian 13)")
    let sway = CompositorFacts(socket: "wayland-0", virtualInput: true)

    func facts(_ env: [String: String], _ libei: LibeiLibrary?, compositor: CompositorFacts? = nil,
               uinput: UInputAccess = .writable) -> InjectorFacts {
        InjectorFacts(environment: env, uinput: uinput, platform: .linux, compositor: compositor, libei: libei)
    }

    @Test func aHandedDescriptorOrPathWithLibeiPicksLibeiBeforeWlrootsAndUInput() {
        for socket in [["REMOTION_EIS_FD": "5"], ["LIBEI_SOCKET": "/run/user/1000/eis-0"]] {
            let d = InjectorSelection.decide(.auto, facts(gnome.merging(socket) { $1 }, present, compositor: sway))
            #expect(d.backend == .libei && d.fix == nil && d.warning == nil)
            #expect(d.reason.contains(socket.first!.key + "=") && d.reason.contains("libei.so.1"))
            #expect(!d.reason.contains("\n"))
        }
        // Not only on Wayland: a socket handed on purpose is the person's choice.
        let x11 = InjectorSelection.decide(.auto, facts(["DISPLAY": ":0", "REMOTION_EIS_FD": "7"], present))
        #expect(x11.backend == .libei)
    }

    @Test func withoutLibeiTheChoiceIsAsBeforeAndSaysWhyNotLibei() {
        let d = InjectorSelection.decide(.auto, facts(gnome.merging(["REMOTION_EIS_FD": "5"]) { $1 }, missing, compositor: sway))
        #expect(d.backend == .wlroots)
        #expect(d.reason.contains("REMOTION_EIS_FD=5") && d.reason.contains("not installed") && !d.reason.contains("\n"))
        let x11 = InjectorSelection.decide(.auto, facts(["DISPLAY": ":0", "LIBEI_SOCKET": "/x"], missing, uinput: .notWritable))
        #expect(x11.backend == .xtest && x11.reason.contains("LIBEI_SOCKET=/x"))
        // Not asked whether libei loads: never picked.
        #expect(InjectorSelection.decide(.auto, facts(["REMOTION_EIS_FD": "5"], nil)).backend == .uinput)
    }

    @Test func noSocketNeverPicksLibeiEvenWhenItLoads() {
        #expect(InjectorSelection.decide(.auto, facts(gnome, present, compositor: sway)).backend == .wlroots)
        #expect(InjectorSelection.decide(.auto, facts(gnome, present)).backend == .uinput)
        #expect(InjectorSelection.decide(.auto, facts(["DISPLAY": ":0", "REMOTION_EIS_FD": ""], present)).backend == .uinput)
    }

    @Test func macOSIgnoresTheSocket() {
        let f = InjectorFacts(environment: ["REMOTION_EIS_FD": "5"], uinput: .missing, platform: .macOS, libei: present)
        #expect(InjectorSelection.decide(.auto, f).backend == .cgevent)
    }

    @Test func doctorSaysWhetherLibeiLoadsAndASocketIsHanded() throws {
        let ready = try #require(DoctorChecks.libei(facts(gnome.merging(["REMOTION_EIS_FD": "5"]) { $1 }, present)))
        #expect(ready.status == .pass && ready.message.contains("REMOTION_EIS_FD=5") && ready.message.contains("uses libei"))
        let noLib = try #require(DoctorChecks.libei(facts(["LIBEI_SOCKET": "/s"], missing)))
        #expect(noLib.status == .warn && noLib.message.contains("not installed") && noLib.fix?.contains("libei1") == true)
        #expect(DoctorChecks.libei(facts(gnome, nil)) == nil)
    }

    @Test func doctorOnGnomeOrKDEWithoutASocketSaysWhatToDoInOneLine() throws {
        for desktop in ["ubuntu:GNOME", "KDE"] {
            var env = gnome
            env["XDG_CURRENT_DESKTOP"] = desktop
            let line = try #require(DoctorChecks.libei(facts(env, present)))
            #expect(line.status == .warn && line.message.contains("no EIS socket"))
            let fix = line.fix ?? ""
            #expect(fix.contains("REMOTION_EIS_FD") && fix.contains("LIBEI_SOCKET") && fix.contains("docs/INJECTION.md"))
            #expect(!fix.contains("\n") && !line.message.contains("\n"))
            let without = try #require(DoctorChecks.libei(facts(env, missing)))
            #expect(without.status == .warn && without.fix?.contains("uinput") == true)
        }
        // Sway, or X11: nothing to do.
        var sway = gnome
        sway["XDG_CURRENT_DESKTOP"] = "sway"
        #expect(DoctorChecks.libei(facts(sway, present))?.status == .pass)
        #expect(DoctorChecks.libei(facts(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"], missing))?.status == .pass)
    }
}
