#if os(Linux)
import CAvahi
import RemotionHostLogic

/// Owns one AvahiThreadedPoll and its AvahiClient, and all Swift state that avahi callbacks touch.
///
/// Why `@unchecked Sendable` is sound here (the proof the project rules ask for):
/// every mutable stored property below (`client`, `clientRunning`, `startupError`, `nextID`,
/// `browses`, `resolves`, `publications`) is read or written only
///   (a) on the avahi poll thread inside an avahi callback — the threaded poll calls every
///       callback with its lock held (thread-watch.h: "event loop callback functions are called
///       from the event loop helper thread with that lock held"), or
///   (b) inside `locked { }`, which holds `avahi_threaded_poll_lock`, or
///   (c) in `init` before `avahi_threaded_poll_start` and in `deinit` after
///       `avahi_threaded_poll_stop`, when no other thread can reach the object.
/// So all accesses are serialised by one mutex. `locked` is never called from the poll thread
/// (it would deadlock, the mutex is not recursive): it is only called from the public async API
/// and from stream termination handlers, which run on Swift tasks, never inside callbacks —
/// callbacks only `yield` to continuations and resume continuations, which never run consumer
/// code synchronously. `poll` is immutable after init.
final class AvahiLoop: @unchecked Sendable {
    static let daemonMessage = "avahi-daemon is not running: discovery is off, connect by address"

    let poll: OpaquePointer
    var client: OpaquePointer?
    var clientRunning = false
    var startupError: String?
    var nextID = 1
    var browses: [Int: BrowseRecord] = [:]
    var resolves: [Int: ResolveRecord] = [:]
    var publications: [Int: PublishRecord] = [:]
    /// Keeps the client callback context alive (unowned back-reference).
    private var clientToken: Token!

    init() {
        poll = avahi_threaded_poll_new()
        clientToken = Token(loop: self, kind: .client)
        connect()
        if avahi_threaded_poll_start(poll) < 0 {
            startupError = "could not start the avahi event thread"
        }
    }

    deinit {
        avahi_threaded_poll_stop(poll)
        for record in browses.values { record.continuation.finish() }
        for record in resolves.values { record.waiter?.resume() }
        for record in publications.values {
            record.waiter?.resume(throwing: DiscoveryError.publishFailed("the publisher was shut down"))
        }
        if let client { avahi_client_free(client) }
        avahi_threaded_poll_free(poll)
    }

    /// Runs `body` with the avahi lock held. Never call from an avahi callback.
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return try body()
    }

    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    var unavailableError: DiscoveryError {
        if let startupError { return .daemonUnavailable(message: "\(Self.daemonMessage) (\(startupError))") }
        return .daemonUnavailable(message: Self.daemonMessage)
    }

    /// Creates the client with AVAHI_CLIENT_NO_FAIL: without a daemon it waits in CONNECTING
    /// and reports S_RUNNING when the daemon appears. Called in init and on the poll thread.
    private func connect() {
        var error: Int32 = 0
        let userdata = Unmanaged.passUnretained(clientToken).toOpaque()
        // The callback runs for the first time inside avahi_client_new (it stores `client`).
        let created = avahi_client_new(avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL,
                                       { c, state, userdata in
                                           guard let c, let userdata else { return }
                                           Token.from(userdata).loop.clientChanged(c, state)
                                       }, userdata, &error)
        if created == nil {
            startupError = "avahi client: \(avahiErrorText(error))"
        } else {
            client = created
            startupError = nil
        }
    }

    private func clientChanged(_ c: OpaquePointer, _ state: AvahiClientState) {
        client = c
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            clientRunning = true
            for id in browses.keys.sorted() { startBrowser(id) }
            for id in publications.keys.sorted() { startGroup(id) }
        case AVAHI_CLIENT_S_REGISTERING, AVAHI_CLIENT_S_COLLISION:
            // Host name (re)registration: withdraw our services, re-add them on S_RUNNING.
            clientRunning = false
            for id in publications.keys.sorted() {
                if let group = publications[id]?.group { avahi_entry_group_reset(group) }
                publications[id]?.needsAdd = true
            }
        case AVAHI_CLIENT_CONNECTING:
            clientRunning = false
            daemonGone()
        case AVAHI_CLIENT_FAILURE:
            clientRunning = false
            let error = avahi_client_errno(c)
            daemonGone()
            // Make a new client that waits for the daemon (avahi's documented way to survive
            // daemon restarts); our browsers, resolvers and groups were freed by daemonGone.
            client = nil
            avahi_client_free(c)
            if error == Int32(AVAHI_ERR_DISCONNECTED) {
                connect()
            } else {
                startupError = avahiErrorText(error)
            }
        default:
            break
        }
    }

    /// The daemon is unreachable: free our C objects explicitly (whether the client then fails
    /// or waits in CONNECTING), clear live lists, fail waiters.
    private func daemonGone() {
        for id in browses.keys.sorted() { browserLost(id) }
        for id in resolves.keys.sorted() { resolveLost(id) }
        for id in publications.keys.sorted() { publicationLost(id) }
    }
}

/// Callback context passed to C as `userdata` (unretained; the loop's state keeps it alive
/// for as long as the C object that may call back with it exists).
final class Token {
    enum Kind {
        case client
        case browser(browse: Int)
        case browseResolver(browse: Int, key: ServiceKey, transport: AddressFamily, family: AddressFamily)
        case resolver(resolve: Int, family: AddressFamily)
        case group(publication: Int)
    }

    unowned let loop: AvahiLoop
    let kind: Kind

    init(loop: AvahiLoop, kind: Kind) {
        self.loop = loop
        self.kind = kind
    }

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer) -> Token {
        Unmanaged<Token>.fromOpaque(pointer).takeUnretainedValue()
    }
}
#endif
