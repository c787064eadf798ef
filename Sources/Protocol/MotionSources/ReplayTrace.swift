
/// A recorded trace: CSV with a header line `t,roll,pitch,yaw,buttons` (t in seconds
/// from the start, angles in radians, buttons the letters held, "-" or empty for none).
/// Lines starting with '#' are comments. Between rows the attitude is held (no
/// interpolation), so a replay reproduces exactly what was recorded.
public struct ReplayTrace: MotionSource {
    public struct Row: Sendable, Equatable {
        public var t: Double
        public var attitude: Attitude
        public var buttons: ButtonSet
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable, Equatable {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    public let rows: [Row]

    public init(rows: [Row]) { self.rows = rows }

    public init(csv: String) throws(ParseError) {
        var rows: [Row] = []
        var sawHeader = false
        for (index, raw) in csv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingWhitespace()
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            if !sawHeader {
                guard fields.count >= 4, fields[0] == "t", fields[1] == "roll", fields[2] == "pitch", fields[3] == "yaw" else {
                    throw ParseError(line: index + 1, message: "the first line must be the header t,roll,pitch,yaw[,buttons]")
                }
                sawHeader = true
                continue
            }
            guard fields.count == 4 || fields.count == 5 else {
                throw ParseError(line: index + 1, message: "expected 4 or 5 comma-separated fields, found \(fields.count)")
            }
            var numbers: [Double] = []
            for (name, text) in zip(["t", "roll", "pitch", "yaw"], fields.prefix(4)) {
                guard let v = Double(text), v.isFinite else {
                    throw ParseError(line: index + 1, message: "\(name) '\(text)' is not a finite number")
                }
                numbers.append(v)
            }
            var buttons = ButtonSet.none
            if fields.count == 5, fields[4] != "-" {
                for ch in fields[4] {
                    guard let b = Button(letter: String(ch)) else {
                        throw ParseError(line: index + 1, message: "'\(ch)' is not a button; use letters A to P")
                    }
                    buttons.insert(b)
                }
            }
            if let last = rows.last, numbers[0] < last.t {
                throw ParseError(line: index + 1, message: "t goes backwards (\(numbers[0]) after \(last.t))")
            }
            rows.append(Row(t: numbers[0], attitude: Attitude(roll: numbers[1], pitch: numbers[2], yaw: numbers[3]),
                            buttons: buttons))
        }
        guard sawHeader else { throw ParseError(line: 1, message: "empty trace: expected the header t,roll,pitch,yaw[,buttons]") }
        guard !rows.isEmpty else { throw ParseError(line: 2, message: "the trace has a header but no samples") }
        self.rows = rows
    }

    public var length: Double? { rows.last?.t }

    public func sample(at t: Double) -> MotionReading {
        // Binary search for the last row at or before t.
        var lo = 0, hi = rows.count - 1
        if t <= rows[0].t { return reading(0) }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if rows[mid].t <= t { lo = mid } else { hi = mid - 1 }
        }
        return reading(lo)
    }

    private func reading(_ i: Int) -> MotionReading {
        let row = rows[i]
        var gyro = Vector3.zero
        if i > 0, row.t > rows[i - 1].t {
            let dt = row.t - rows[i - 1].t
            let p = rows[i - 1].attitude
            gyro = Vector3(x: Float((row.attitude.pitch - p.pitch) / dt), y: Float((row.attitude.roll - p.roll) / dt),
                           z: Float(wrappedDifference(row.attitude.yaw, p.yaw) / dt))
        }
        return MotionReading(attitude: row.attitude, gyro: gyro, buttons: row.buttons)
    }
}

/// a − b folded into (−π, π].
func wrappedDifference(_ a: Double, _ b: Double) -> Double {
    var d = a - b
    while d > Double.pi { d -= 2 * Double.pi }
    while d <= -Double.pi { d += 2 * Double.pi }
    return d
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
