/// The web controller's counters for the control socket's `web-stats`
/// (`{"command":"web-stats"}` → `{"ok":true,"opened":…,"dropped":{"stale":…},…}`).
extension WebControllerStats.Snapshot {
    package var controlFields: [String: ControlValue] {
        func table(_ t: [String: Int]) -> ControlValue { .object(t.mapValues { .number(Double($0)) }) }
        return ["opened": .number(Double(opened)), "motionFrames": .number(Double(motionFrames)),
                "mergedFrames": .number(Double(mergedFrames)), "bursts": .number(Double(bursts)),
                "pairings": .number(Double(pairings)), "lanes": .number(Double(lanes)), "refused": table(refused), "dropped": table(Dictionary(dropped.map { ("\($0.key)", $0.value) }, uniquingKeysWith: +)),
                "ended": table(ended), "connections": table(connections), "refusedRequests": table(refusedRequests)]
    }
}
