import RemotionHostLogic
import Testing

/// The replies are what `gdbus call` printed against python-dbusmock's logind template
/// (scripts/logind-session-test.sh's private bus), recorded.
@Suite struct LogindFollowTests {
    let c1 = "/org/freedesktop/login1/session/c1"
    let c2 = "/org/freedesktop/login1/session/c2"
    let displayC2 = "(<('c2', objectpath '/org/freedesktop/login1/session/c2')>,)\n"
    let noDisplay = "(<('', objectpath '/')>,)\n"

    /// Runs one refresh against canned replies (nil: the call failed), returning the
    /// conclusion and the questions asked.
    func refresh(_ follow: inout LogindFollow, display: String?, active: [String: String]) -> (Bool, [LogindFollow.Step]) {
        var asked: [LogindFollow.Step] = []
        var step = follow.start()
        while true {
            asked.append(step)
            switch step {
            case .readDisplay: step = follow.display(display)
            case .readActive(let path): step = follow.active(active[path])
            case .conclude(let verdict): return (verdict, asked)
            }
            if asked.count > 8 { Issue.record("a refresh that does not end"); return (true, asked) }
        }
    }

    @Test func parsesTheUsersDisplay() {
        #expect(LogindReplies.displaySession(displayC2) == c2)
        #expect(LogindReplies.displaySession(noDisplay) == nil)
        #expect(LogindReplies.displaySession("(<('c2', objectpath '/etc/passwd')>,)") == nil)
        #expect(LogindReplies.displaySession("(<('c 2', objectpath '/org/freedesktop/login1/session/c2')>,)") == nil)
        #expect(LogindReplies.displaySession("(<(', objectpath ')>,)") == nil)
        #expect(LogindReplies.displaySession("(<true>,)") == nil)
    }

    @Test func aUserServiceFollowsTheUsersGraphicalSession() {
        // A systemd --user service: no $XDG_SESSION_ID, GetSessionByPID fails; GetUser works.
        #expect(LogindFollow.initial(session: nil, user: nil) == nil)
        var follow = LogindFollow.initial(session: nil, user: "/org/freedesktop/login1/user/1000")!
        let (verdict, asked) = refresh(&follow, display: displayC2, active: [c2: "(<true>,)"])
        #expect(verdict && asked == [.readDisplay, .readActive(c2), .conclude(true)] && follow.path == c2)
        #expect(refresh(&follow, display: displayC2, active: [c2: "(<false>,)"]).0 == false)
    }

    @Test func anEmptyDisplayOrAGoneSessionFailsClosed() {
        var follow = LogindFollow.initial(session: nil, user: "/org/freedesktop/login1/user/1000")!
        #expect(refresh(&follow, display: displayC2, active: [c2: "(<true>,)"]).0)
        #expect(refresh(&follow, display: noDisplay, active: [c2: "(<true>,)"]).0 == false)   // Display became empty
        #expect(follow.path == nil)
        #expect(refresh(&follow, display: displayC2, active: [:]).0 == false)                // the object is gone
        #expect(refresh(&follow, display: nil, active: [c2: "(<true>,)"]).0 == false)        // Display cannot be read
        #expect(refresh(&follow, display: displayC2, active: [c2: "(<true>,)"]).0)           // active again
    }

    @Test func aFixedSessionThatIsGoneFailsClosedUntilTheUsersDisplayIsActive() {
        var follow = LogindFollow.initial(session: c1, user: "/org/freedesktop/login1/user/1000")!
        let (verdict, asked) = refresh(&follow, display: displayC2, active: [c1: "(<true>,)", c2: "(<true>,)"])
        #expect(verdict && asked == [.readActive(c1), .conclude(true)])     // the user's Display is not asked
        // c1 removed: its Active cannot be read. The user has no graphical session: suspended.
        #expect(refresh(&follow, display: noDisplay, active: [c2: "(<true>,)"]).0 == false)
        #expect(follow.path == nil && follow.viaDisplay)
        // c1 gone and Display names an inactive session: still suspended; an active one: resumed.
        #expect(refresh(&follow, display: displayC2, active: [c2: "(<false>,)"]).0 == false)
        #expect(refresh(&follow, display: displayC2, active: [c2: "(<true>,)"]).0 && follow.path == c2)
        // Not a guess: a reply that does not parse is a failed read.
        #expect(refresh(&follow, display: displayC2, active: [c2: "Error: GDBus.Error:org.freedesktop.DBus.Error.UnknownObject"]).0 == false)
    }

    @Test func theMonitorLinesThatCallForAReading() {
        let user = "/org/freedesktop/login1/user/1000"
        #expect(LogindReplies.wantsRefresh("The name org.freedesktop.login1 is owned by :1.1", watched: []))
        #expect(LogindReplies.wantsRefresh(
            "\(user): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.User', {'Display': <('c2', objectpath '\(c2)')>}, @as [])",
            watched: [c1, user]))
        #expect(LogindReplies.wantsRefresh(
            "/org/freedesktop/login1: org.freedesktop.login1.Manager.SessionRemoved ('c1', objectpath '\(c1)')", watched: []))
        #expect(!LogindReplies.wantsRefresh(
            "\(c2): org.freedesktop.DBus.Properties.PropertiesChanged ('org.freedesktop.login1.Session', {'Active': <true>}, @as [])",
            watched: [c1, user]))
        #expect(!LogindReplies.wantsRefresh("/org/freedesktop/login1: org.freedesktop.login1.Manager.PrepareForSleep (true,)", watched: [c1]))
    }
}
