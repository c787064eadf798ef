import ArgumentParser
import Foundation
import RemotionApp

@main
struct RemotionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remotion",
        abstract: "A phone (or any gyroscope) as a wireless motion controller for your desktop.",
        version: RemotionVersion.current,
        subcommands: [HostCommand.self, ClientCommand.self, HostsCommand.self, PairCommand.self, DevicesCommand.self, DemoCommand.self, DoctorCommand.self, DashboardCommand.self, GamepadProbeCommand.self])

    /// Bad flags get one line saying what to fix (and the exit code says usage error);
    /// `--help` still prints the full help.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is CleanExit {
                exit(withError: error)
            }
            printErr("remotion: \(oneLine(self.message(for: error)))")
            Foundation.exit(code.rawValue)
        }
    }
}

/// ArgumentParser's message as one line: "Error: " dropped, a bullet list of allowed
/// values joined with commas ("… one of the following: auto, xtest, uinput").
func oneLine(_ message: String) -> String {
    var text = ""
    var bullets: [String] = []
    for raw in message.split(separator: "\n") {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.hasPrefix("- ") { bullets.append(String(line.dropFirst(2))); continue }
        if line.isEmpty || line.hasPrefix("Usage:") || line.hasPrefix("See '") { continue }
        text += (text.isEmpty ? "" : " ") + line
    }
    if !bullets.isEmpty { text += " " + bullets.joined(separator: ", ") }
    return text.replacingOccurrences(of: "Error: ", with: "")
}

/// An error the commands raise for the user: printed as one line.
struct UserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
