// Writes the fuzz seed corpus: `swift run FuzzSeeds [Fuzz/corpus]` creates
// <dir>/datagram/ and <dir>/handshake/ with one file per genuine datagram.
// The files are deterministic; FuzzChecksTests checks the checked-in copy is current.
import Foundation
import RemotionFuzzChecks

let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Fuzz/corpus")
let sets: [(String, [(name: String, bytes: [UInt8])])] = [
    ("datagram", DatagramSeeds.all),
    ("handshake", HandshakeFixture.shared.seeds),
]
do {
    for (target, seeds) in sets {
        let dir = root.appendingPathComponent(target)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for seed in seeds {
            try Data(seed.bytes).write(to: dir.appendingPathComponent(seed.name + ".bin"))
        }
        print("\(target): \(seeds.count) seeds in \(dir.path)")
    }
} catch {
    FileHandle.standardError.write(Data("FuzzSeeds: \(error)\n".utf8))
    exit(1)
}
