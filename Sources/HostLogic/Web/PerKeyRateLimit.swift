import Foundation

/// At most `limit` events per `window` seconds for each key (a device id), sans-IO: the time
/// is a parameter. A fixed window per key, restarted by the first event after it ends. Keeps
/// at most `maxKeys` keys (the least recently seen is forgotten first), so a stream of new
/// keys cannot grow it.
package struct PerKeyRateLimit: Sendable {
    package let limit: Int
    package let window: TimeInterval
    package let maxKeys: Int
    private var windows: [String: (start: Date, count: Int)] = [:]

    package init(limit: Int, window: TimeInterval, maxKeys: Int = 256) {
        self.limit = limit
        self.window = window
        self.maxKeys = maxKeys
    }

    /// Counts one event for `key` at `now`: true when it is within the limit.
    package mutating func allow(_ key: String, now: Date) -> Bool {
        if var w = windows[key], now.timeIntervalSince(w.start) < window {
            w.count += 1
            windows[key] = w
            return w.count <= limit
        }
        if windows[key] == nil, windows.count >= maxKeys,
           let oldest = windows.min(by: { $0.value.start < $1.value.start })?.key {
            windows.removeValue(forKey: oldest)
        }
        windows[key] = (now, 1)
        return limit >= 1
    }

    /// How many keys are remembered (bounded by `maxKeys`).
    package var keys: Int { windows.count }
}
