// The libFuzzer targets as one executable (docs/FUZZING.md): one sanitizer build serves them
// all, and the environment picks which one a run fuzzes (REMOTION_FUZZ_TARGET=FuzzHost…).
// Only the chosen target's code runs, so libFuzzer's coverage feedback and corpus are that
// target's alone. This file holds declarations only: in a `--sanitize=fuzzer` build SwiftPM
// compiles it with -parse-as-library and libFuzzer supplies `main`; in a normal build the
// empty top level makes this a do-nothing executable, so `swift build` still links it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FuzzTarget: String, CaseIterable {
    case datagram = "FuzzDatagram", handshake = "FuzzHandshake", host = "FuzzHost"
    case webRTC = "FuzzWebRTC", gamepad = "FuzzGamepad"

    static let variable = "REMOTION_FUZZ_TARGET"

    /// The target this process fuzzes, read once from the environment (nil: none or unknown).
    static let chosen: FuzzTarget? = getenv(variable).flatMap { FuzzTarget(rawValue: String(cString: $0)) }

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .datagram: DatagramTarget.run(bytes)
        case .handshake: HandshakeTarget.run(bytes)
        case .host: HostTarget.run(bytes)
        case .webRTC: WebRTCTarget.run(bytes)
        case .gamepad: GamepadTarget.run(bytes)
        }
    }
}

/// Called by libFuzzer once before any input: without a known target, say which and stop.
@_cdecl("LLVMFuzzerInitialize")
package func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard FuzzTarget.chosen == nil else { return 0 }
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    let line = "FuzzTargets: set \(FuzzTarget.variable) to one of \(names)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTarget.chosen?.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}
