import Foundation
import RemotionApp
import RemotionHostLogic

/// `remotion pair --listen` while `remotion host` runs: the host opens the pairing
/// window on its own port, asked over its control socket (`control.sock` in the data
/// directory); this process shows the code and the controller's request and sends the
/// user's answer. Without a running host, `PairCommand` pairs on its own socket.
enum PairThroughHost {
    /// False when no host answers on the socket (nothing was done).
    static func run(socket path: String, window: Double, advertise: String?, yes: Bool) async throws -> Bool {
        guard let client = try? await ControlClient.connect(path: path) else { return false }
        defer { Task { await client.close() } }
        var open = ControlRequest("pair-window", ["seconds": .number(window)])
        if let advertise { open.fields["advertise"] = .string(advertise) }
        let opened = try await client.send(open)
        guard opened.ok, let code = opened.string("code") else {
            throw UserError("the running host cannot pair: \(opened.error ?? "no pairing code")")
        }
        say("pairing through the running remotion host (its control socket \(path))")
        say("host fingerprint: \(opened.string("fingerprint") ?? "?")")
        say("pairing code (valid \(Int(window)) s, one controller; on the controller run `remotion pair CODE`):")
        say(code)
        while true {
            let answer = try await client.send(ControlRequest("pair-wait", ["seconds": .number(1)]))
            guard answer.ok else { throw UserError("pairing failed: \(answer.error ?? "the host refused")") }
            if answer.bool("closed") == true { throw UserError("no controller paired within \(Int(window)) s") }
            guard let request = answer.object("request"), case .number(let id)? = request["id"],
                  case .string(let fingerprint)? = request["fingerprint"] else { continue }
            var name = ""
            if case .string(let n)? = request["name"] { name = n }
            let accept = yes ? true : await Task.detached { [name] in ask(name: name, fingerprint: fingerprint) }.value
            let decided = try await client.send(ControlRequest("pair-decide", ["id": .number(id), "accept": .bool(accept)]))
            guard decided.ok else { throw UserError("pairing failed: \(decided.error ?? "the host refused")") }
            if let stored = decided.object("stored"), case .string(let storedName)? = stored["name"],
               case .string(let storedFingerprint)? = stored["fingerprint"] {
                say(DeviceListLines.pairedNow(name: storedName, fingerprint: storedFingerprint))
                return true
            }
            say("refused; nothing was stored")
        }
    }

    /// Asks the user on the terminal; anything but y/yes refuses.
    static func ask(name: String, fingerprint: String) -> Bool {
        let label = name.isEmpty ? "(unnamed)" : TextFormat.sanitize(name)
        say("controller '\(label)' with fingerprint \(fingerprint) wants to pair.")
        FileHandle.standardOutput.write(Data("Does the controller show the same fingerprint? Accept? [y/N] ".utf8))
        return readLine()?.lowercased().hasPrefix("y") ?? false
    }
}

/// A line to stdout, unbuffered (the pairing code must appear at once, also in a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
