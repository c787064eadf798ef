#if os(Linux)
import Glibc
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// What other threads hand the reader thread: rumbles to play, light colours to show and the
/// stop request, each followed by a byte on the wake pipe. Bounded: one pending rumble and one
/// colour per pad key, and the keys of pads that are gone are dropped when the reader takes them.
final class LocalPadMailbox: Sendable {
    private struct State {
        var wake: Int32
        var stopping = false
        var rumbles: [String: LocalPadRumble] = [:]
        var lights: [String: ControllerFeedback.Color] = [:]
    }
    private let state: Mutex<State>

    init(wake: Int32) { state = Mutex(State(wake: wake)) }

    /// Under the lock, so the wake descriptor cannot be closed (and reused) mid-write.
    private static func poke(_ s: inout State) {
        guard s.wake >= 0 else { return }
        var one: UInt8 = 1
        _ = Glibc.write(s.wake, &one, 1)   // non-blocking: a full pipe already wakes the reader
    }

    func post(_ key: String, _ rumble: LocalPadRumble) {
        state.withLock { s in
            guard !s.stopping else { return }
            s.rumbles[key] = rumble
            Self.poke(&s)
        }
    }

    func post(_ key: String, light colour: ControllerFeedback.Color) {
        state.withLock { s in
            guard !s.stopping, s.lights[key] != colour else { return }
            s.lights[key] = colour
            Self.poke(&s)
        }
    }

    /// True the first time (the reader is woken to stop).
    func requestStop() -> Bool {
        state.withLock { s in
            guard !s.stopping else { return false }
            s.stopping = true
            Self.poke(&s)
            return true
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    func takeRumbles() -> [String: LocalPadRumble] {
        state.withLock { s in
            defer { s.rumbles.removeAll() }
            return s.rumbles
        }
    }

    func takeLights() -> [String: ControllerFeedback.Color] {
        state.withLock { s in
            defer { s.lights.removeAll() }
            return s.lights
        }
    }

    func closeWake() {
        state.withLock { s in
            if s.wake >= 0 { Glibc.close(s.wake) }
            s.wake = -1
        }
    }
}
#endif
