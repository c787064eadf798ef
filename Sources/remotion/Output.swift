#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Status lines go to stderr so stdout stays machine-readable (the log injector's JSON).
func printErr(_ line: String) {
    fputs(line + "\n", stderr)
}
