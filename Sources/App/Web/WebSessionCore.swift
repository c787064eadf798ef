import Foundation
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// What one WebSocket session's two sockets share (docs/WEB-CONTROLLER.md, "The motion
/// lane"): the page's clock offset, its hold-to-aim, the button state the primary socket
/// built, and the newest-wins intake into the host. The primary socket's motion frames carry
/// the button truth (as on a lone WebSocket); a lane's frames get the primary's state in
/// their button field, so a lane can never press or release a button. One lock covers the
/// state and the call into the intake, so a lane frame cannot slip a stale button state in
/// between a primary edge and the host. Frames older than the newest taken are dropped by
/// the intake as `stale`, whichever socket they came on.
final class WebSessionCore: Sendable {
    let session: SessionID
    private let intake: WebMotionIntake
    private let stats: WebControllerStats
    private struct State {
        var clock = WebClockOffset()
        var clutch = PageClutch()
        var buttons = ButtonSet.none
        var closed = false
    }
    private let state = Mutex(State())

    init(host: any ExternalControllerHost, session: SessionID, stats: WebControllerStats) {
        self.session = session
        self.stats = stats
        intake = WebMotionIntake(host: host, session: session, stats: stats)
    }

    /// A MOTION frame from the primary socket (`lane` false) or the motion lane.
    func motion(_ m: WebMotion, lane: Bool) {
        let hostNow = Date().timeIntervalSince1970 * 1000
        let taken = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            var sample = s.clutch.apply(m.sample, held: m.clutch)   // hold to aim
            if lane { sample.buttons = s.buttons } else { s.buttons = sample.buttons }
            intake.motion(sequence: m.sequence, sample,
                          latencyMicros: s.clock.latencyMicros(sampleMillis: m.timeMillis, hostNowMillis: hostNow))
            return true
        }
        if taken { stats.count(motion: 1) }
    }

    /// A BUTTON edge (primary socket only).
    func button(_ button: Button, isDown: Bool) {
        state.withLock { s in
            guard !s.closed else { return }
            s.buttons.set(button, down: isDown)
            intake.button(button, isDown: isDown)
        }
    }

    /// A PING from either socket: the clock offset's estimate.
    func ping(pageTimeMillis: Double, rttTenths: UInt16) {
        let hostNow = Date().timeIntervalSince1970 * 1000
        state.withLock { $0.clock.ping(pageTimeMillis: pageTimeMillis, rttMillis: rttTenths == 0 ? nil : Double(rttTenths) / 10,
                                       hostNowMillis: hostNow) }
    }

    /// The session is over: nothing more reaches the host through here.
    func close() {
        state.withLock { $0.closed = true }
        intake.close()
    }

    /// MOTION-ACK (0x84) for a frame received on a WebSocket: [4..7] its sequence, sent
    /// back on the socket it came on, so the page knows that socket has nothing in flight.
    static func ack(_ sequence: UInt32) -> [UInt8] {
        [0x84, 0, 0, 0, UInt8(sequence & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 24)]
    }
}
