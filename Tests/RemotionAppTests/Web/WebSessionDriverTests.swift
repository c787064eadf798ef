@testable import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Synchronization
import Testing

/// `WebSessionDriver` (docs/WEB-CONTROLLER.md, "One session machine") against a host that
/// records its calls: what a data channel delivers reaches the host in one order, page input
/// included, and closing releases and ends once.
@Suite struct WebSessionDriverTests {
    /// Records every command in order as `HostControllers` delivers it; answers input and
    /// modes when `answer` runs (as the host's loop does, later: never from inside the call).
    final class RecordingHost: Sendable {
        let calls = Mutex<[String]>([])
        let pending = Mutex<[@Sendable () -> Void]>([])
        func answer() { for reply in pending.withLock({ p in defer { p = [] }; return p }) { reply() } }
        /// The notices sink (rumble and light, calibration) the last `open` was given.
        let noticeSink = Mutex<(@Sendable (ControllerNotice) -> Void)?>(nil)
        /// Calibration: what `calibration` says (started unless told otherwise).
        let calibration = Mutex<CalibrationReport?>(.running(progress: 0))

        /// The seam the transports hold, delivering to this recorder.
        var controllers: HostControllers {
            HostControllers(name: "test-host", open: { [self] _, _, notices in
                noticeSink.withLock { $0 = notices }
                return SessionID(7)
            }, deliver: { [self] command, _, answer in deliver(command, answer: answer ?? { _ in }) })
        }

        private func deliver(_ command: ControllerCommand, answer: @escaping HostControllers.Answer) {
            switch command {
            case .setTyping: break
            case .buttonLabels: answer(nil)     // no labels, at once (the hello awaits it)
            case .mode(let mode): record("mode", answering: .mode(mode ?? .pointer), answer)
            // Pads: on for any session, as a host with `--gamepad` answers.
            case .pad(let on): record("pad \(on)", answering: .pad(on), answer)
            case .gyroStick(let target): record("gyro-stick \(target.rawValue)", answering: .gyroStick(target), answer)
            case .calibrate: record("calibrate", answering: calibration.withLock { $0 }.map(ControllerAnswer.calibration), answer)
            case .input: record("input", answering: nil, answer)
            default: record(Self.describe(command))
            }
        }

        /// A command without an answer as the tests spell it.
        static func describe(_ command: ControllerCommand) -> String {
            switch command {
            case .motion(let sample, _): "motion \(sample.buttons)"
            case let .button(button, isDown): "button \(button) \(isDown ? "down" : "up")"
            case .close(let reason): "close \(reason)"
            case .heard: "heard"
            case .recenter: "recenter"
            default: "\(command)"
            }
        }

        private func record(_ s: String, answering: ControllerAnswer? = nil, _ answer: HostControllers.Answer? = nil) {
            let now = calls.withLock { $0.append(s); return $0 }
            if let answer { pending.withLock { $0.append { answer(answering) } } }
            let met = waiters.withLock { w -> [Waiter] in
                defer { w.removeAll { $0.condition(now) } }
                return w.filter { $0.condition(now) }
            }
            for waiter in met { waiter.done.resume() }
        }

        private struct Waiter {
            let condition: @Sendable ([String]) -> Bool
            let done: CheckedContinuation<Void, Never>
        }
        private let waiters = Mutex<[Waiter]>([])

        /// Returns once the calls so far satisfy `condition`: woken by the call that does, with
        /// no deadline and no polling (a transport's task on the pool makes the call when the
        /// pool gets to it; the suite's time limit ends a run where it never comes).
        func calls(until condition: @escaping @Sendable ([String]) -> Bool) async {
            await withCheckedContinuation { done in
                let met = waiters.withLock { w in
                    if condition(calls.withLock { $0 }) { return true }
                    w.append(Waiter(condition: condition, done: done))
                    return false
                }
                if met { done.resume() }
            }
        }
    }

    static func button(_ b: Button, down: Bool) -> [UInt8] { [0x02, b.rawValue, down ? 1 : 0, 0, 0, 0, 0, 0] }

    /// The page's Gamepad mode asks for a pad (and gives it back) on the session's own
    /// channel; the answer says the pad's state; on the motion channel it is dropped.
    @Test func aPadCommandReachesTheHostInOrderAndItsAnswerTheCaller() {
        let host = RecordingHost()
        let driver = WebSessionDriver(host: host.controllers, stats: WebControllerStats(), transport: .dataChannels, limit: .seconds(2.5))
        #expect(driver.opened(SessionID(7)))
        let answers = Mutex<[WebHostMessage?]>([])
        _ = driver.received(Self.button(.a, down: true), on: .control)
        driver.command(.pad(true), on: .control) { a in answers.withLock { $0.append(a) } }
        driver.command(.pad(true), on: .motion) { a in answers.withLock { $0.append(a) } }   // not its channel
        driver.command(.pad(false), on: .control) { a in answers.withLock { $0.append(a) } }
        #expect(host.calls.withLock { $0 } == ["button A down", "pad true", "pad false"])
        #expect(answers.withLock { $0 } == [nil], "the motion channel's command is answered nil at once")
        host.answer()
        #expect(answers.withLock { $0 } == [nil, .pad(on: true, available: true), .pad(on: false, available: true)])
        #expect(WebClientMessage.parse(#"{"type":"command","command":"pad","on":true}"#) == .pad(true))
        #expect(WebClientMessage.parse(#"{"type":"command","command":"pad"}"#) == nil)
        #expect(WebHostMessage.pad(on: true, available: false).text == #"{"type":"pad","on":true,"available":false}"#)
        driver.command(.gyroStick(.left), on: .control) { a in answers.withLock { $0.append(a) } }
        host.answer()
        #expect(answers.withLock { $0.last } == .gyroStick(.left) && host.calls.withLock { $0.last } == "gyro-stick left")
        #expect(WebClientMessage.parse(#"{"type":"command","command":"gyro-stick","target":"right"}"#) == .gyroStick(.right))
        #expect(WebClientMessage.parse(#"{"type":"command","command":"gyro-stick","target":"up"}"#) == nil)
        #expect(WebHostMessage.gyroStick(.off).text == #"{"type":"gyro-stick","target":"off"}"#)
    }

    @Test func dataChannelInputReachesTheHostInOrderWithItsButtons() {
        let host = RecordingHost()
        let stopped = Mutex(0)
        let driver = WebSessionDriver(host: host.controllers, stats: WebControllerStats(), transport: .dataChannels,
                                      limit: .seconds(2.5), stop: { stopped.withLock { $0 += 1 } })
        #expect(driver.opened(SessionID(7)))
        _ = driver.received(Self.button(.a, down: true), on: .control)
        driver.input(.click(.left, down: nil), on: .control) { _ in }
        driver.command(.recenter, on: .control) { #expect($0 == nil) }
        _ = driver.received(Self.button(.a, down: false), on: .control)
        _ = driver.received(Self.button(.b, down: true), on: .motion)      // dropped: the motion channel owns nothing
        driver.input(.text("no"), on: .motion) { #expect($0 == nil) }      // dropped, answered nil at once
        _ = driver.received(Self.button(.c, down: true), on: .control)
        #expect(host.calls.withLock { $0 } == ["button A down", "input",
                                                "recenter", "button A up", "button C down"])
        host.answer()
        let out = driver.close(.revoked)
        #expect(host.calls.withLock { Array($0.suffix(2)) } == ["button C up", "close revoked"])
        guard case .text(let goodbye, .control)? = out.first else { Issue.record("no goodbye"); return }
        #expect(goodbye.contains("revoked"))
        #expect(stopped.withLock { $0 } == 0, "the peer stops at the linger deadline, after the goodbye left")
        #expect(driver.close(.timedOut).isEmpty, "once")
    }

    /// The page's Calibrate reaches the host in order with its buttons and is answered with
    /// what it came to; on the motion channel it is dropped and answered nil at once.
    @Test func aCalibrateCommandReachesTheHostAndItsAnswerThePage() {
        let host = RecordingHost()
        let driver = WebSessionDriver(host: host.controllers, stats: WebControllerStats(), transport: .dataChannels, limit: .seconds(2.5))
        #expect(driver.opened(SessionID(7)))
        let answers = Mutex<[WebHostMessage?]>([])
        _ = driver.received(Self.button(.a, down: true), on: .control)
        driver.command(.calibrate, on: .control) { a in answers.withLock { $0.append(a) } }
        driver.command(.calibrate, on: .motion) { a in answers.withLock { $0.append(a) } }
        #expect(host.calls.withLock { $0 } == ["button A down", "calibrate"])
        #expect(answers.withLock { $0 } == [nil])
        host.answer()
        #expect(answers.withLock { $0 } == [nil, .calibration(.running(progress: 0))])
        host.calibration.withLock { $0 = nil }                      // the session is gone meanwhile
        driver.command(.calibrate, on: .control) { a in answers.withLock { $0.append(a) } }
        host.answer()
        #expect(answers.withLock { $0.count } == 3 && answers.withLock { $0.last } == .some(nil), "answered once, with nothing")
    }

    /// A revoked data channel session says goodbye at once and its peer stops at the
    /// machine's linger deadline, on the driver's clock: virtual time that the test moves on,
    /// running the driver's timer on the test's own thread (`ManualWebClock`). The test is
    /// synchronous: it awaits nothing, so no busy concurrency pool can delay or fail it. Not
    /// a nanosecond before the deadline; once. A held burst of the WebSocket would leave the
    /// same way.
    @Test func theLingerDeadlineRunsOnTheDriversClock() {
        let host = RecordingHost()
        let time = ManualWebClock()
        let stopped = Mutex(0)
        let driver = WebSessionDriver(host: host.controllers, stats: WebControllerStats(), transport: .dataChannels,
                                      limit: .seconds(2.5), clock: time.clock, stop: { stopped.withLock { $0 += 1 } })
        #expect(driver.opened(SessionID(7)))
        _ = driver.received(Self.button(.a, down: true), on: .control)
        let goodbye = driver.close(.revoked)
        #expect(goodbye.count == 1 && host.calls.withLock { $0 } == ["button A down", "button A up", "close revoked"])
        #expect(time.pending == 1, "one timer, for the linger deadline")
        time.advance(by: WebSession.linger - .nanoseconds(1))
        #expect(stopped.withLock { $0 } == 0, "the peer still lingers a nanosecond before the deadline")
        time.advance(by: .nanoseconds(1))
        #expect(stopped.withLock { $0 } == 1, "the peer stopped at the linger deadline")
        #expect(time.pending == 0, "and no timer is left")
        time.advance(by: .seconds(60))
        #expect(stopped.withLock { $0 } == 1 && driver.close(.timedOut).isEmpty, "once")
    }

    /// The page's MOTION frame (52 bytes): frame `i` at 60 Hz, page time 1000 s + i × 16 ms.
    static func motion(_ i: Int) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 52)
        b[0] = 0x01
        b[1] = 0x02                                         // gyro rates present
        for k in 0..<4 { b[4 + k] = UInt8(UInt32(i) >> (8 * UInt32(k)) & 0xFF) }
        let page = (1_000_000 + Double(i) * 16).bitPattern
        for k in 0..<8 { b[8 + k] = UInt8(page >> (8 * UInt64(k)) & 0xFF) }
        for k in 0..<4 { b[28 + k] = UInt8(Float(1).bitPattern >> (8 * UInt32(k)) & 0xFF) }
        return b
    }

    /// A WebSocket that stalled delivers its backlog at once: newest wins holds the burst and
    /// sends it, merged, when no frame came for `tailWait` — the machine's deadline, on the
    /// driver's clock, run by the test moving the time on (no task, no real wait).
    @Test func aHeldBurstLeavesAtItsDeadlineOnTheDriversClock() {
        let host = RecordingHost()
        let time = ManualWebClock()
        let driver = WebSessionDriver(host: host.controllers, stats: WebControllerStats(), transport: .webSocket,
                                      limit: .seconds(2.5), clock: time.clock)
        #expect(driver.opened(SessionID(7)))
        func motions() -> Int { host.calls.withLock { $0.filter { $0.hasPrefix("motion") }.count } }
        for i in 0..<10 {                                   // on pace: each passes through
            _ = driver.received(Self.motion(i), on: .primary)
            time.advance(by: .milliseconds(16))
        }
        #expect(motions() == 10 && time.pending == 0)
        time.advance(by: .milliseconds(200))                // the stream stalls, then its backlog comes at once
        for i in 10..<15 { _ = driver.received(Self.motion(i), on: .primary) }
        #expect(motions() == 10, "the burst is held")
        #expect(time.pending == 1, "one timer, for the hold's end")
        time.advance(by: NewestWinsIntake().tailWait - .nanoseconds(1))
        #expect(motions() == 10, "still held a nanosecond before the deadline")
        time.advance(by: .nanoseconds(1))
        #expect(motions() == 11, "sent once, merged, at the deadline")
        #expect(time.pending == 0)
    }

    @Test func aClosedPageStopsAtOnceAndNothingReachesTheHostAfter() {
        let host = RecordingHost()
        let stopped = Mutex(0)
        let driver = WebSessionDriver(host: host.controllers, stats: WebControllerStats(), transport: .dataChannels,
                                      limit: .seconds(2.5), stop: { stopped.withLock { $0 += 1 } })
        #expect(driver.opened(SessionID(7)))
        driver.close(.closedByPage)
        #expect(stopped.withLock { $0 } == 1)
        _ = driver.received(Self.button(.a, down: true), on: .control)
        #expect(host.calls.withLock { $0 } == ["close client-disconnected:user"])
        #expect(!driver.opened(SessionID(8)), "a session the host opened after the end is not taken")
    }
}
