import RemotionHostLogic
import RemotionProtocol
import Testing

/// The RemoteDesktop portal's conversation as decisions: the calls in order, the Response
/// signals taken only from the portal's unique name on the awaited path, response codes,
/// deadlines and the restore token.
@Suite struct PortalRemoteDesktopFlowTests {
    let me = ":1.42", portal = ":1.7"
    let base = "/org/freedesktop/portal/desktop/request/1_42/"
    let session = "/org/freedesktop/portal/desktop/session/1_42/remotion_session"
    typealias Flow = PortalRemoteDesktopFlow
    var startPath: String { base + "remotion_3" }

    /// Runs the flow to Start's awaited answer (on `startPath`).
    func toStart(token: String?) -> Flow {
        var f = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: token)
        #expect(f.begin(now: .zero) == .createSession(handleToken: "remotion_1", sessionHandleToken: "remotion_session"))
        f.requestSent(handle: base + "remotion_1")
        let select = f.response(sender: portal, path: base + "remotion_1", code: 0,
                                results: .init(sessionHandle: session), now: .seconds(1))
        #expect(select == .selectDevices(session: session, handleToken: "remotion_2", types: 3, persistMode: 2, restoreToken: token))
        f.requestSent(handle: base + "remotion_2")
        #expect(f.response(sender: portal, path: base + "remotion_2", code: 0, results: .init(), now: .seconds(2))
                == .start(session: session, handleToken: "remotion_3"))
        f.requestSent(handle: base + "remotion_3")
        return f
    }

    @Test func firstStartAsksWithoutATokenAndStoresTheOneStartGives() {
        var f = toStart(token: nil)
        #expect(!f.usesStoredToken)
        let next = f.response(sender: portal, path: startPath, code: 0,
                              results: .init(restoreToken: "0b6f-token", devices: 3), now: .seconds(20))
        #expect(next == .connectToEIS(session: session))
        #expect(f.eisReceived() == .finished(PortalOutcome(failure: nil, token: .store("0b6f-token"), usedStoredToken: false)))
        #expect(f.nextDeadline == nil && f.ignoredResponses == 0)
    }

    @Test func aStoredTokenGoesToSelectDevicesAndIsReplacedByTheNewOne() {
        var f = toStart(token: "old-token")
        #expect(f.usesStoredToken)
        _ = f.response(sender: portal, path: startPath, code: 0, results: .init(restoreToken: "new-token"), now: .seconds(3))
        #expect(f.eisReceived() == .finished(PortalOutcome(failure: nil, token: .store("new-token"), usedStoredToken: true)))
    }

    @Test func aStartWithoutANewTokenDropsTheSpentOne() {
        var f = toStart(token: "old-token")
        _ = f.response(sender: portal, path: startPath, code: 0, results: .init(devices: 3), now: .seconds(3))
        #expect(f.eisReceived() == .finished(PortalOutcome(failure: nil, token: .drop, usedStoredToken: true)))
    }

    @Test func theRefusalEndsTheFlowWithOneLineAndDropsAUsedToken() {
        var f = toStart(token: "old-token")
        let end = f.response(sender: portal, path: startPath, code: 1, results: .init(), now: .seconds(9))
        #expect(end == .finished(PortalOutcome(failure: .cancelled, token: .drop, usedStoredToken: true)))
        let line = PortalFailure.cancelled.line
        #expect(line.contains("not allowed") && line.contains("--inject uinput") && !line.contains("\n"))
        // Without a token there is none to drop.
        var g = toStart(token: nil)
        #expect(g.response(sender: portal, path: startPath, code: 2, results: .init(), now: .seconds(9))
                == .finished(PortalOutcome(failure: .refused(step: "Start", code: 2), token: .keep, usedStoredToken: false)))
    }

    @Test func aForgedResponseFromAnotherSenderOrPathIsIgnoredAndCounted() {
        var f = toStart(token: nil)
        // Another program on the bus: right path, wrong sender; the portal's name on another path;
        // the portal's well-known name (only a unique name is a sender).
        #expect(f.response(sender: ":1.99", path: startPath, code: 1, results: .init(), now: .seconds(4)) == nil)
        #expect(f.response(sender: portal, path: base + "remotion_2", code: 1, results: .init(), now: .seconds(4)) == nil)
        #expect(f.response(sender: "org.freedesktop.portal.Desktop", path: startPath, code: 0,
                           results: .init(restoreToken: "forged"), now: .seconds(4)) == nil)
        #expect(f.ignoredResponses == 3)
        // The real answer still counts.
        #expect(f.response(sender: portal, path: startPath, code: 0, results: .init(restoreToken: "real"), now: .seconds(5))
                == .connectToEIS(session: session))
        #expect(f.eisReceived() == .finished(PortalOutcome(failure: nil, token: .store("real"), usedStoredToken: false)))
        // Once answered, the path's second Response is not taken again.
        #expect(f.response(sender: portal, path: startPath, code: 0, results: .init(), now: .seconds(6)) == nil)
    }

    @Test func anOldPortalsOtherHandleIsTheOneAwaited() {
        var f = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: nil)
        _ = f.begin(now: .zero)
        f.requestSent(handle: "/org/freedesktop/portal/desktop/request/other/7")
        #expect(f.response(sender: portal, path: base + "remotion_1", code: 0, results: .init(sessionHandle: session), now: .zero) == nil)
        #expect(f.response(sender: portal, path: "/org/freedesktop/portal/desktop/request/other/7", code: 0,
                           results: .init(sessionHandle: session), now: .zero) != nil)
    }

    @Test func aPortalBeforeVersionTwoIsRefusedBeforeAnyCall() {
        var f = Flow(ownName: me, portalOwner: portal, version: 1, storedToken: "t")
        #expect(f.begin(now: .zero) == .finished(PortalOutcome(failure: .tooOld(version: 1), token: .keep, usedStoredToken: true)))
        #expect(PortalFailure.tooOld(version: 1).line.contains("version 1"))
    }

    @Test func lateAnswersEndTheFlowAtTheirDeadline() {
        var f = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: nil)
        _ = f.begin(now: .seconds(100))
        #expect(f.nextDeadline == .seconds(130))
        #expect(f.tick(now: .seconds(129)) == nil)
        #expect(f.tick(now: .seconds(130)) == .finished(PortalOutcome(failure: .timedOut(step: "CreateSession"), token: .keep,
                                                                      usedStoredToken: false)))
        // The person has three minutes for the dialog.
        var g = toStart(token: nil)
        #expect(g.nextDeadline == Instant.seconds(2) + PortalRemoteDesktopFlow.consentTimeout)
        #expect(g.tick(now: .seconds(182)) == .finished(PortalOutcome(failure: .noAnswer, token: .keep, usedStoredToken: false)))
    }

    @Test func failuresBeforeStartAndMalformedAnswers() {
        var f = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: "t")
        _ = f.begin(now: .zero)
        #expect(f.response(sender: portal, path: base + "remotion_1", code: 0, results: .init(sessionHandle: "not a path"), now: .zero)
                == .finished(PortalOutcome(failure: .malformed(step: "CreateSession", what: "no session_handle"), token: .keep,
                                           usedStoredToken: true)))
        // A token the portal refuses at SelectDevices is dropped.
        var g = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: "t")
        _ = g.begin(now: .zero)
        _ = g.response(sender: portal, path: base + "remotion_1", code: 0, results: .init(sessionHandle: session), now: .zero)
        #expect(g.response(sender: portal, path: base + "remotion_2", code: 2, results: .init(), now: .zero)
                == .finished(PortalOutcome(failure: .refused(step: "SelectDevices", code: 2), token: .drop, usedStoredToken: true)))
        // A D-Bus error of a call names its step.
        var h = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: nil)
        _ = h.begin(now: .zero)
        #expect(h.callFailed("No such interface") == .finished(PortalOutcome(
            failure: .callFailed(step: "CreateSession", message: "No such interface"), token: .keep, usedStoredToken: false)))
    }

    @Test func aStartWithoutThePointerIsRefusedButItsTokenKept() {
        var f = toStart(token: nil)
        #expect(f.response(sender: portal, path: startPath, code: 0, results: .init(restoreToken: "t2", devices: 1), now: .zero)
                == .finished(PortalOutcome(failure: .devicesMissing(granted: 1), token: .store("t2"), usedStoredToken: false)))
    }

    @Test func aStoredTokenThatIsNoTokenIsNotSent() {
        for bad in ["", "has space", String(repeating: "a", count: 513), "tab\there", "ünï"] {
            let f = Flow(ownName: me, portalOwner: portal, version: 2, storedToken: bad)
            #expect(!f.usesStoredToken)
        }
    }

    @Test func theTokenFileRoundTripsAndRejectsWhatIsNoToken() {
        let token = "6d3c6fd2-5a9b-4b8e-9a21-0d3f2b1e7c44"
        #expect(PortalRestoreToken.decode(PortalRestoreToken.encode(token)) == token)
        #expect(PortalRestoreToken.decode(Array("\(token)\r\n".utf8)) == token)
        #expect(PortalRestoreToken.decode([]) == nil)
        #expect(PortalRestoreToken.decode([0xFF, 0xFE]) == nil)
        #expect(PortalRestoreToken.decode(Array("two\nlines\n".utf8)) == nil)
        #expect(PortalRestoreToken.decode(Array(repeating: 0x61, count: 10_000)) == nil)
    }

    @Test func requestPathsAreMadeAsThePortalMakesThem() {
        #expect(PortalRequestPath.path(ownName: ":1.42", token: "remotion_1") == base + "remotion_1")
        #expect(PortalRequestPath.isObjectPath(session))
        #expect(!PortalRequestPath.isObjectPath("/a//b") && !PortalRequestPath.isObjectPath("/a/") && !PortalRequestPath.isObjectPath("a"))
        #expect(!PortalRequestPath.isObjectPath("/a-b"))
    }
}
