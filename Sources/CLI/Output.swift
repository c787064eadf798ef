import Foundation

/// Status lines go to stderr so stdout stays machine-readable (the log injector's JSON).
func printErr(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
