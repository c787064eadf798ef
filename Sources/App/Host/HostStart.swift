import RemotionNetwork

extension HostLoop {
    /// Puts the bound address into the snapshots and publishes the first one, so the
    /// dashboard and the status view show the host, where it listens and its uptime
    /// (counted from here) before any controller connects.
    package func announceStart() async throws {
        let listen = localAddress.displayText
        try await onLoop { pipeline, now in
            pipeline.identity.listen = listen
            pipeline.publishNow(now: now)
        }
    }
}

extension HostService where Sink == HostPipeline {
    /// The same, for code that holds the typed service (the demo, tests).
    package func announceStart() async throws { try await HostLoop(self).announceStart() }
}
