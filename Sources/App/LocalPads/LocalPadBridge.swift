import Logging
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
import Synchronization

/// `remotion host --local-pads` (docs/LOCAL-PADS.md): the gamepads plugged into this
/// computer become controllers. `LocalPadWatcher` reads them on its own thread; each notice
/// hops to the host's loop in order, where `LocalPadSessions` opens, feeds and closes one
/// external session per pad through the same seam as a DSU slot, so gyro mouse, the fused
/// pointer, the DSU server and the virtual DualSense all see it like any controller.
package final class LocalPadBridge: Sendable {
    #if os(Linux)
    private let watcher: LocalPadWatcher

    private init(watcher: LocalPadWatcher) { self.watcher = watcher }

    package static func start(host: HostLoop, config: LocalPadsConfig, logger: Logger) async throws -> LocalPadBridge {
        let loop = host.eventLoop
        // A game's rumble and light go back to the pad's reader; a pad can open (and a game
        // rumble it) before the watcher below is made, so the sessions reach it through this.
        let feedbackTarget = Mutex<LocalPadWatcher?>(nil)
        let sessions = try await host.onLoop { pipeline, _ in
            let s = LocalPadSessions(pipeline: pipeline, logger: logger, rumble: { key, rumble in
                feedbackTarget.withLock { $0 }?.rumble(key, rumble)
            }, light: { key, colour in
                feedbackTarget.withLock { $0 }?.light(key, colour)
            })
            pipeline.dropReporters.append(s)
            return NIOLoopBound(s, eventLoop: loop)
        }
        // The reader's own buffer: it never waits for the loop; one drain queued on the loop
        // at a time takes everything waiting, a late pad's motion merged (`LocalPadInbox`).
        let inbox = LocalPadInbox()
        let watcher = try LocalPadWatcher(config: config) { notice in
            guard inbox.post(notice) else { return }
            host.execute { _, now in
                let batch = inbox.take()
                sessions.value.hostBehind(merged: batch.merged, dropped: batch.dropped)
                for notice in batch.notices { sessions.value.handle(notice, now: now) }
            }
        }
        feedbackTarget.withLock { $0 = watcher }
        return LocalPadBridge(watcher: watcher)
    }

    #endif

    /// Stops reading: every pad's session closes (what it held is released) before the loop goes.
    package func stop() async {
        #if os(Linux)
        watcher.stop()
        #endif
    }
}

#if os(Linux)

/// The pads' sessions, on the host's loop (its only owner).
final class LocalPadSessions: HostDropReporter {
    private let pipeline: HostPipeline
    private let logger: Logger
    private var sessions: [String: SessionID] = [:]
    private var names: [String: String] = [:]
    private var counters: [String: LocalPadCounters] = [:]
    /// What the pads that ended dropped, by kind: totals, not a list of pads.
    private var closedDrops: [LocalPadDrop: Int] = [:]
    private var opened = 0
    private var samples = 0
    private var refused = 0
    private var hostBehindEvents = 0
    /// Late samples merged into others (their motion kept), over every pad.
    private var mergedSamples = 0
    private var saidBehind: Set<String> = []
    private let rumble: @Sendable (String, LocalPadRumble) -> Void
    private let light: @Sendable (String, ControllerFeedback.Color) -> Void

    /// `rumble` plays a game's rumble on the pad named by its key, `light` shows the colour
    /// the game set (the reader's thread does both; it writes a colour only when it changed).
    init(pipeline: HostPipeline, logger: Logger, rumble: @escaping @Sendable (String, LocalPadRumble) -> Void,
         light: @escaping @Sendable (String, ControllerFeedback.Color) -> Void = { _, _ in }) {
        self.pipeline = pipeline
        self.logger = logger
        self.rumble = rumble
        self.light = light
    }

    /// What the loop was late for (`LocalPadInbox`), by pad: samples merged into others (their
    /// motion kept; the stop line has the total) and the events of a backlog of button edges
    /// past the inbox's limit, counted with the pads' drops as `host-behind`.
    func hostBehind(merged: [String: Int], dropped: [String: Int] = [:]) {
        for (key, n) in merged {
            mergedSamples &+= n
            // Said once per pad.
            guard saidBehind.insert(key).inserted else { continue }
            logger.info("local pads: the host fell behind \(names[key] ?? key) and merged \(n) of its late samples into fewer steps (its motion is kept)")
        }
        for (key, n) in dropped {
            hostBehindEvents &+= n
            logger.warning("local pads: the host fell behind \(names[key] ?? key) by more than \(LocalPadInbox.limit) button edges and dropped the oldest \(n)")
        }
    }

    func handle(_ notice: LocalPadNotice, now: Instant) {
        switch notice {
        case let .opened(key, name, uniq):
            guard sessions[key] == nil else { return }
            // The node's path names the pad (its origin; a local pad has no network address);
            // its uniq names it for calibration memory (the path changes when it is plugged in again).
            let rumble = self.rumble, light = self.light
            // The pad's way back: a game's rumble and light on its virtual pad reach the real one.
            let notices: @Sendable (ControllerNotice) -> Void = { notice in
                guard case .feedback(let f) = notice else { return }
                rumble(key, LocalPadRumble(f))
                if let colour = f.lightbar { light(key, colour) }
            }
            guard let id = pipeline.open(from: .localPad(key), name: name,
                                         calibrationKey: ControllerCalibrationKey.localPad(uniq: uniq),
                                         notices: notices, now: now) else {
                refused += 1
                logger.warning("local pads: \(name): the host is full (--max-controllers); not read")
                return
            }
            sessions[key] = id
            names[key] = name
            opened += 1
        case let .events(key, events):
            guard let id = sessions[key] else { return }
            for event in events {
                switch event {
                case .sample(let s):
                    samples += 1
                    pipeline.perform(.motion(s, latencyMicros: nil), for: id, now: now)
                case let .button(b, down):
                    pipeline.button(id, b, isDown: down, now: now)
                }
            }
        case let .closed(key, why, final):
            // Its drops join the ended pads' totals (the next pad on this node starts at 0).
            counters.removeValue(forKey: key)
            saidBehind.remove(key)
            for (kind, n) in final.counts { closedDrops[kind, default: 0] &+= n }
            guard let id = sessions.removeValue(forKey: key) else { return }
            let name = names.removeValue(forKey: key) ?? key
            pipeline.close(id, reason: why == "host-shutdown" ? .hostShutdown : .clientDisconnected(.user), now: now)
            let dropped = final.counts.dropWords(\.rawValue)
            let lag = final.longestReadLagMicros >= LocalPadCounters.lagWorthSayingMicros
                ? "; read up to \(final.longestReadLagMicros / 1000) ms behind it" : ""
            logger.info("local pads: \(name) ended (\(why)); everything it held released; dropped \(dropped)\(lag)")
        case .alive(let all):
            for (key, c) in all {
                counters[key] = c
                if let id = sessions[key] { pipeline.heard(id, now: now) }
            }
        case .say(let line):
            logger.info("\(line)")
        case .inventory(let inventory):
            // Published now: with no controller connected nothing else would publish it.
            pipeline.localPads = inventory
            pipeline.publishNow(now: now)
        }
    }

    // MARK: HostDropReporter

    /// Drops by reason, over the pads open now and those that ended.
    var dropCounts: [LocalPadDrop: Int] {
        var all = counters.values.reduce(into: closedDrops) { sum, c in sum.add(c.counts) { $0 } }
        if hostBehindEvents > 0 { all[.hostBehind, default: 0] += hostBehindEvents }
        return all
    }

    var hostDrops: [HostDrop: Int] { [HostDrop: Int]().adding(dropCounts, as: HostDrop.localPads) }

    var summary: String {
        "local pads: \(opened) opened, \(samples) samples to the host, \(mergedSamples) late ones merged into them, dropped \(dropCounts.dropWords(\.rawValue))"
    }
}
#endif
