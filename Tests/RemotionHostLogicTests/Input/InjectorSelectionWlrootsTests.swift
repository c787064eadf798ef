import RemotionHostLogic
import Testing

/// `--inject auto` on a Wayland session whose compositor was asked what it offers.
@Suite struct InjectorSelectionWlrootsTests {
    let wayland = ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-1"]

    func decide(_ uinput: UInputAccess, _ compositor: CompositorFacts?) -> InjectorDecision {
        InjectorSelection.decide(.auto, InjectorFacts(environment: wayland, uinput: uinput, platform: .linux,
                                                      compositor: compositor))
    }

    @Test func aCompositorWithBothProtocolsIsPickedWithOrWithoutUInput() {
        for access in [UInputAccess.writable, .notWritable, .missing] {
            let d = decide(access, CompositorFacts(socket: "wayland-1", virtualInput: true))
            #expect(d.backend == .wlroots && d.fix == nil && d.warning == nil)
            #expect(d.reason.contains("WAYLAND_DISPLAY=wayland-1") && d.reason.contains("no root"))
            #expect(!d.reason.contains("\n"))
        }
    }

    @Test func aCompositorWithoutThemFallsBackToUInputAndSaysWhyWhenThatFails() {
        let lacking = CompositorFacts(socket: "wayland-1", virtualInput: false)
        #expect(decide(.writable, lacking).backend == .uinput)
        let d = decide(.missing, lacking)
        #expect(d.backend == .uinput)
        let fix = d.fix ?? ""
        #expect(fix.contains("offers no wlroots virtual pointer and keyboard") && fix.contains("modprobe uinput"))
        #expect(!fix.contains("\n"))
    }

    @Test func aSocketThatIsNoCompositorIsOneClauseOfTheLine() {
        let broken = CompositorFacts(socket: "wayland-1", virtualInput: false,
                                     problem: "WAYLAND_DISPLAY=wayland-1: not a Wayland compositor: no answer within 2000 ms")
        let d = decide(.notWritable, broken)
        #expect(d.backend == .uinput)
        let fix = d.fix ?? ""
        #expect(fix.contains("did not answer as a compositor") && fix.contains("no answer within 2000 ms"))
        #expect(!fix.contains("\n"))
    }

    @Test func wlrootsNamedIsTakenAsAsked() {
        let d = InjectorSelection.decide(.wlroots, InjectorFacts(environment: [:], uinput: .missing, platform: .linux))
        #expect(d.backend == .wlroots && d.reason == "--inject wlroots" && d.fix == nil)
    }
}
