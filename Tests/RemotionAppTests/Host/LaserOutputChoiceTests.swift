import Logging
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// The presenter's laser dot follows the output chosen in the dashboard (its overlay is placed
/// on the output the pointer covers).
@Suite struct LaserOutputChoiceTests {
    @Test func theLaserOverlayOpensAgainOverTheOutputChosenInTheDashboard() {
        let backend = LayoutBackend(outputs: [DashboardOutputTests.left, DashboardOutputTests.right], chosen: "HEADLESS-1")
        let p = HostPipeline(injector: Injector(backend: backend), buttonMap: .seedDefault, settings: MappingSettings(),
                             logger: Logger(label: "test"), injectorReason: "test", publisher: nil)
        var opened: [String?] = []
        let overlay = HostPipelineWebInputTests.RecordingOverlay()
        let hook = LaserOverlayHook(logger: Logger(label: "test"), screen: { backend.screenGeometry() }, open: {
            opened.append(backend.outputChoosing?.chosenOutput)
            return (overlay, nil)
        })
        p.laser = hook
        let one = SessionID(1)
        hook.set(one, on: true, from: nil)
        #expect(opened == ["HEADLESS-1"])
        guard case .chosen(let outputs) = p.chooseOutput("HEADLESS-2") else {
            Issue.record("HEADLESS-2 was not chosen")
            return
        }
        #expect(outputs.inUse == "HEADLESS-2")
        #expect(opened == ["HEADLESS-1", "HEADLESS-2"], "a laser held: the dot opens again over the chosen output at once")
        #expect(overlay.calls.withLock { $0 } == ["hide"], "the old dot hidden")
        #expect(!hook.output(.moveTo(x: 100, y: 100), session: one, now: .zero), "the held laser still takes the pointer's events")
        #expect(overlay.calls.withLock { $0.last } == "show 100,100")
        hook.set(one, on: false, from: nil)
        _ = p.chooseOutput("HEADLESS-1")
        #expect(opened.count == 2, "no laser held: nothing opens until the next laser")
        hook.set(one, on: true, from: nil)
        #expect(opened.last == "HEADLESS-1")
    }
}
