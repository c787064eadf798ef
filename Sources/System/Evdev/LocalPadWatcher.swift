#if os(Linux)
import Foundation
import Glibc
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// What the local-pads reader tells the host, in order, from its own thread.
package enum LocalPadNotice: Sendable {
    /// A pad to open as a controller; `key` (its motion node's path) names it from now on;
    /// `uniq` is the pad's own (its MAC or serial, "" when the driver gives none).
    case opened(key: String, name: String, uniq: String = "")
    case events(key: String, [LocalPad.Event])
    /// The pad's motion node went away (unplugged) or the reader stopped, with what it
    /// dropped over its life (its last counts: the next pad on the same node starts at 0).
    case closed(key: String, why: String, counters: LocalPadCounters = LocalPadCounters())
    /// Every second: the open pads are alive, with what each dropped so far.
    case alive([String: LocalPadCounters])
    /// One line to say once (a node it may not read, a pad it skips, a grab refused).
    case say(String)
    /// What it reads and skips now, whenever that changes (the dashboard's and the terminal
    /// view's local-pads section).
    case inventory(LocalPadInventory)
}

/// Reads the motion sensors of the gamepads plugged into this computer (docs/LOCAL-PADS.md):
/// a thread of its own finds them in sysfs, opens each pad's Motion Sensors node and its
/// gamepad node, reads them (poll) and converts with `LocalPad`; inotify on /dev/input
/// rescans when a node comes or goes. Everything mutable lives on that thread
/// (`LocalPadReaderLoop`); this handle holds only the wake pipe and the done signal.
package final class LocalPadWatcher: Sendable {
    private let mailbox: LocalPadMailbox
    private let done = DispatchSemaphore(value: 0)

    /// Starts the reader; `notify` runs on its thread, in order.
    package init(config: LocalPadsConfig, notify: @escaping @Sendable (LocalPadNotice) -> Void) throws(EvdevError) {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw EvdevError("cannot make a pipe for", path: "local pads", code: errno) }
        for wake in pipeFDs {
            _ = fcntl(wake, F_SETFD, FD_CLOEXEC)
            _ = fcntl(wake, F_SETFL, fcntl(wake, F_GETFL) | O_NONBLOCK)
        }
        let mailbox = LocalPadMailbox(wake: pipeFDs[1])
        self.mailbox = mailbox
        let wakeRead = pipeFDs[0], done = self.done
        let thread = Thread {
            var reader = LocalPadReaderLoop(config: config, wake: wakeRead, mailbox: mailbox, notify: notify)
            reader.run()
            Glibc.close(wakeRead)
            done.signal()
        }
        thread.name = "remotion-local-pads"
        thread.start()
    }

    /// A game's rumble for the pad named `key` (from any thread): the reader plays it on the
    /// pad's gamepad node; a newer one for the same pad replaces one not yet played.
    package func rumble(_ key: String, _ rumble: LocalPadRumble) { mailbox.post(key, rumble) }

    /// A game's light colour for the pad named `key` (from any thread): the reader writes it
    /// to the pad's LEDs when it differs from the last (`LocalPadLight`).
    package func light(_ key: String, _ colour: ControllerFeedback.Color) { mailbox.post(key, light: colour) }

    /// Stops the reader: every open pad is closed (a `.closed` notice each) before this returns.
    package func stop() {
        guard mailbox.requestStop() else { return }
        done.wait()
        mailbox.closeWake()
    }

    deinit { stop() }
}

/// The reader thread's state: the inotify watch, the open pads, the lines already said.
struct LocalPadReaderLoop {
    struct OpenPad {
        var pad: LocalPad
        let motion: EvdevDevice
        var controls: EvdevDevice?
        /// The FF_RUMBLE effect the kernel gave this pad's gamepad node (−1: none yet).
        var rumbleEffect: Int16 = -1
        /// Its gamepad node takes FF_RUMBLE (EVIOCGBIT, asked once when the node is attached).
        var controlsRumble = false
        /// For the inventory: its controller's name and its driver's axis convention.
        var name = ""
        var driver = ""
        /// Its RGB light's LEDs (looked for at the first colour a game sets: hid-playstation
        /// registers them after the input nodes the reader opens the pad by; nil: none known).
        var light: LocalPadLight?
        var lightLooked = false

        /// What it dropped so far, with the light's refused writes.
        var counters: LocalPadCounters {
            var c = pad.counters
            c.lightDenied = light?.refused ?? 0
            return c
        }
    }

    let config: LocalPadsConfig
    let wake: Int32
    let mailbox: LocalPadMailbox
    let notify: @Sendable (LocalPadNotice) -> Void
    var inotify: Int32 = -1
    var watchingInput = false
    var pads: [String: OpenPad] = [:]
    /// The event nodes as sysfs last described them, by name ("event4"): what is present now.
    var known: [String: EvdevNodeInfo] = [:]
    /// Problem lines already said (a rescan finds the same problem again); at most
    /// `saidLimit`, then forgotten, so a line may come again but the set never grows unbounded.
    var said: Set<String> = []
    static let saidLimit = 256
    /// The motion nodes the last rescan did not read, and why; the inventory last sent.
    var skipped: [LocalPadInventory.Skipped] = []
    var inventory: LocalPadInventory?
    /// The longest step said so far (`noteBusy`); shorter ones are not worth a line.
    var longestBusyMillis: Int64 = 100

    init(config: LocalPadsConfig, wake: Int32, mailbox: LocalPadMailbox, notify: @escaping @Sendable (LocalPadNotice) -> Void) {
        self.config = config
        self.wake = wake
        self.mailbox = mailbox
        self.notify = notify
    }

    mutating func run() {
        inotify = inotify_init1(O_NONBLOCK | O_CLOEXEC)
        if inotify < 0 { say("local pads: inotify unavailable (\(String(cString: strerror(errno)))): pads plugged in later are not seen") }
        rescan()
        var lastAlive = Self.nowMillis()
        while true {
            let keys = pads.keys.sorted()
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0), pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
            var owners: [(String, Bool)] = []
            for k in keys {
                guard let p = pads[k] else { continue }
                fds.append(pollfd(fd: p.motion.fd, events: Int16(POLLIN), revents: 0)); owners.append((k, true))
                if let c = p.controls { fds.append(pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)); owners.append((k, false)) }
            }
            let ready = poll(&fds, nfds_t(fds.count), 500)
            if ready < 0 && errno != EINTR { say("local pads: poll failed: \(String(cString: strerror(errno)))"); break }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while drain.withUnsafeMutableBytes({ Glibc.read(wake, $0.baseAddress, $0.count) }) > 0 {}
                if mailbox.isStopping { break }
                playRumbles()
                showLights()
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let start = Self.nowMillis()
                rescan(changed: drainInotify())
                noteBusy(Self.nowMillis() - start, doing: "looking for pads")
            }
            let start = Self.nowMillis()
            for (i, (key, isMotion)) in owners.enumerated() where fds[i + 2].revents != 0 {
                serve(key, motion: isMotion, hangup: fds[i + 2].revents & Int16(POLLIN) == 0)
            }
            let now = Self.nowMillis()
            noteBusy(now - start, doing: "reading the pads")
            if now - lastAlive >= 500 {
                lastAlive = now
                if !pads.isEmpty { notify(.alive(pads.mapValues(\.counters))) }
            }
        }
        for key in pads.keys.sorted() { close(key, why: "host-shutdown") }
        if inotify >= 0 { Glibc.close(inotify) }
    }

    /// Reads per node and pass, at most (64 events each): a node that streams faster than a
    /// starved reader decodes must not hold the others. Read until empty, a pad's motion node
    /// kept the reader 2.7 s in a loaded guest; a pad's gamepad node that appeared meanwhile
    /// was opened only after its button's press and release, and the click was lost.
    static let readsPerPass = 16

    /// Reads a node until it has nothing queued, or `readsPerPass` reads (poll comes back to it
    /// with the rest, after the other nodes, the hot-plug watch and the wake pipe); a node gone
    /// closes its pad (motion) or detaches (gamepad).
    mutating func serve(_ key: String, motion isMotion: Bool, hangup: Bool) {
        guard var p = pads[key], let device = isMotion ? Optional(p.motion) : p.controls else { return }
        var out: [LocalPad.Event] = []
        var gone: String? = hangup ? "hangup" : nil
        var reads = 0
        reading: while gone == nil && reads < Self.readsPerPass {
            reads += 1
            switch device.read() {
            case .empty: break reading
            case .gone(let why): gone = why
            case let .events(events, partial):
                if partial { p.pad.countPartialRead() }
                if isMotion, let oldest = events.first { p.pad.noteReadLag(Self.nowMicros() - oldest.timeMicros) }
                // After a SYN_DROPPED the node's state is reread before the frames queued behind it.
                if isMotion {
                    out += p.pad.motionEvents(events) { device.absInfos(EvdevCode.motionAxes).mapValues(\.value) }
                } else {
                    out += p.pad.controlEvents(events) {
                        (device.pressedKeys(), device.absInfos(EvdevCode.padAxes).mapValues(\.value))
                    }
                }
            }
        }
        if let gone, !isMotion {
            out += p.pad.detachControls()
            p.controls?.close()
            p.controls = nil
            p.rumbleEffect = -1   // the kernel's effect went with the node
            p.controlsRumble = false
            say("local pads: \(key)'s gamepad node \(device.path) went away (\(gone)); its buttons released")
        }
        pads[key] = p
        if !out.isEmpty { notify(.events(key: key, out)) }
        if let gone, isMotion { close(key, why: gone) }
    }

    mutating func close(_ key: String, why: String) {
        guard let p = pads.removeValue(forKey: key) else { return }
        p.controls?.close()
        p.motion.close()
        notify(.closed(key: key, why: why, counters: p.counters))
        publishInventory()
    }

    /// Sends what is read and skipped now, when it differs from what was sent last.
    mutating func publishInventory() {
        let reading = pads.keys.sorted().compactMap { key -> LocalPadInventory.Pad? in
            guard let p = pads[key] else { return nil }
            let rumble = p.controlsRumble && p.controls?.isWritable == true
            return LocalPadInventory.Pad(name: p.name, motionNode: key, gamepadNode: p.controls?.path, driver: p.driver,
                                         grabbed: p.motion.isGrabbed, rumble: rumble)
        }
        let now = LocalPadInventory(reading: reading, skipped: skipped.sorted { $0.node < $1.node })
        guard now != inventory else { return }
        inventory = now
        notify(.inventory(now))
    }

    /// A step that kept the reader from the pads long enough for the kernel's buffers to
    /// fill is said, each time a longer one than any before (so a few lines at most).
    mutating func noteBusy(_ millis: Int64, doing what: String) {
        guard millis > longestBusyMillis, !pads.isEmpty else { return }
        longestBusyMillis = millis
        say("local pads: the reader was busy \(millis) ms \(what); the pads' frames waited in the kernel meanwhile")
    }

    /// Says a problem line once (not again at every rescan).
    mutating func say(_ line: String) {
        if said.count >= Self.saidLimit { said.removeAll() }
        guard said.insert(line).inserted else { return }
        notify(.say(line))
    }

    static func nowMillis() -> Int64 { nowMicros() / 1000 }

    /// CLOCK_MONOTONIC, the clock the nodes' event times are on (EVIOCSCLOCKID at open).
    static func nowMicros() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
#endif
