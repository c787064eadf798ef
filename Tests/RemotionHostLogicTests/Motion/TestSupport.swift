import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

let fullHD = ScreenGeometry(width: 1920, height: 1080)

func deg(_ d: Double) -> Double { d * .pi / 180 }

func attitude(roll: Double = 0, pitch: Double = 0, yaw: Double = 0) -> Attitude {
    Attitude(roll: roll, pitch: pitch, yaw: yaw)
}

/// A gyro-only sample at `micros` with rates given in degrees per second.
func gyroSample(_ micros: UInt64, yawRate: Double = 0, pitchRate: Double = 0) -> MotionSample {
    MotionSample(timestampMicros: micros,
                 gyro: Vector3(x: Float(deg(pitchRate)), y: 0, z: Float(deg(yawRate))))
}

/// Drives a `GyroMouseMapper` with a steady stream of samples at `hz`, keeping
/// the controller clock. Timestamps are rounded to whole microseconds from the
/// start of each run, so the intervals of a run add up exactly to its length.
struct GyroRig {
    var mapper: GyroMouseMapper
    var micros: UInt64 = 1_000_000
    var screen = fullHD

    init(_ settings: FPSSettings, sensitivity: Double = 1) {
        mapper = GyroMouseMapper(settings: settings, sensitivity: sensitivity)
        // The first sample only establishes the clock.
        let first = mapper.update(gyroSample(micros), attitude: nil, screen: screen)
        #expect(first == (0, 0))
    }

    /// Runs `seconds` of constant rates; returns every sample's output.
    mutating func run(yawRate: Double = 0, pitchRate: Double = 0, seconds: Double,
                      hz: Double = 120) -> [(dx: Int, dy: Int)] {
        let base = micros
        let n = Int((seconds * hz).rounded())
        var out: [(dx: Int, dy: Int)] = []
        for k in 1...n {
            micros = base + UInt64((Double(k) * 1e6 / hz).rounded())
            out.append(mapper.update(gyroSample(micros, yawRate: yawRate, pitchRate: pitchRate),
                                     attitude: nil, screen: screen))
        }
        return out
    }
}

func sum(_ moves: [(dx: Int, dy: Int)]) -> (dx: Int, dy: Int) {
    moves.reduce((0, 0)) { ($0.0 + $1.dx, $0.1 + $1.dy) }
}

/// FPS settings with everything but calibration switched off: sensitivity 1 at
/// every speed, no tightening, no smoothing.
func plainFPS(degreesPerScreen: Double = 30) -> FPSSettings {
    var s = FPSSettings()
    s.calibration = .screen
    s.degreesPerScreen = degreesPerScreen
    s.slowSensitivity = 1
    s.fastSensitivity = 1
    s.tightening = 0
    s.smoothThreshold = 0
    return s
}

/// The package root: the nearest directory above this file holding Package.swift.
func packageRoot(from file: String = #filePath) -> URL? {
    var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
    while dir.path != "/" {
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            return dir
        }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}

/// The shared reference file at ../shared/<relative> from the package root,
/// falling back to /work/shared/<relative>.
func sharedFile(_ relative: String) -> URL? {
    var candidates: [URL] = []
    if let root = packageRoot() {
        candidates.append(root.deletingLastPathComponent().appendingPathComponent("shared/" + relative))
    }
    candidates.append(URL(fileURLWithPath: "/work/shared/" + relative))
    return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
}

struct GroundTruthRow { var timestamp, signal, noisy, filtered: Double }

/// Reads the 1€ reference file (columns: timestamp,signal,noisy,filtered).
func loadOneEuroGroundTruth() throws -> [GroundTruthRow] {
    guard let url = sharedFile("vectors/one-euro/groundTruth.csv") else {
        throw CocoaError(.fileNoSuchFile)
    }
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines = text.split(whereSeparator: \.isNewline).map(String.init)
    #expect(lines.first == "timestamp,signal,noisy,filtered")
    lines.removeFirst()
    return try lines.map { line in
        let f = line.split(separator: ",").map { Double($0) }
        guard f.count == 4, let t = f[0], let s = f[1], let n = f[2], let y = f[3] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return GroundTruthRow(timestamp: t, signal: s, noisy: n, filtered: y)
    }
}
