import Foundation
import RemotionApp

/// Status lines go to stderr so stdout stays machine-readable (the log injector's JSON).
func printErr(_ line: String) {
    StandardStreams.err(line + "\n")
}
