import RemotionNetwork

extension HostService where Sink == HostPipeline {
    /// Puts the bound address into the snapshots and publishes the first one, so the
    /// dashboard and the status view show the host, where it listens and its uptime
    /// (counted from here) before any controller connects.
    package func announceStart() async throws {
        let listen = localAddress.displayText
        try await onLoop { handler in
            handler.sink.identity.listen = listen
            handler.sink.report(handler.report(), now: MonotonicClock.now())
            // Once, at start: wait for the builder so the first snapshot is there on return.
            handler.sink.snapshotBuilder?.drain()
        }
    }
}

extension HostLoop {
    /// `HostService.announceStart` through the handle (the daemon holds no framing type).
    package func announceStart() async throws {
        let listen = localAddress.displayText
        try await onLoop { context in
            context.pipeline.identity.listen = listen
            context.pipeline.report(context.report(), now: MonotonicClock.now())
            context.pipeline.snapshotBuilder?.drain()
        }
    }
}
