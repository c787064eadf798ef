/// A backend whose absolute pointer covers one output of several, and lets the person change
/// which while the host runs (the dashboard; docs/INJECTION.md, "Choosing the output"): the
/// wlroots injector. The others have no outputs to choose: absolute motion covers the whole
/// screen (XTest: the root window; uinput: the compositor maps its range onto the whole
/// desktop; libei: the regions' bounding box, and EIS regions carry no names).
package protocol OutputChoosingBackend: InjectorBackend {
    /// The outputs the backend knew at its last flush (the compositor's order), in logical pixels.
    var outputs: [PointerArea.Output] { get }
    /// The output asked for (`--output`, `[inject] output`, the dashboard); nil: none.
    var chosenOutput: String? { get }
    /// What absolute motion covers now: the chosen output, or the whole layout while it is gone.
    var pointerArea: PointerArea { get }
    /// Makes `name`, an output the compositor has now, the chosen one: the pointer covers it
    /// from the next event on, and follows `PointerArea`'s rule when it goes and comes back.
    /// Returns the line the host says (nil: nothing changed). Throws `.unsupported` with one
    /// line listing the outputs for a name the compositor does not have; nothing changes then.
    func choose(output name: String) throws(InjectionError) -> String?
}

extension OutputChoosingBackend {
    /// A backend that chooses outputs is its own chooser (`InjectorBackend.outputChoosing`).
    package var outputChoosing: (any OutputChoosingBackend)? { self }
}

/// What the status shows of the outputs (docs/DASHBOARD.md): every output the injector knows,
/// the one asked for, the one the pointer covers now, and whether the command line decides.
package struct PointerOutputs: Sendable, Hashable, Codable {
    package var outputs: [PointerArea.Output]
    /// The output asked for (nil: none, the whole layout).
    package var chosen: String?
    /// The output the pointer covers now (nil: the whole layout: none chosen, or it is gone).
    package var inUse: String?
    /// `--output` was given: the command line decides, the dashboard cannot change it.
    package var commandLine: Bool

    package init(outputs: [PointerArea.Output], chosen: String?, inUse: String?, commandLine: Bool) {
        self.outputs = outputs
        self.chosen = chosen
        self.inUse = inUse
        self.commandLine = commandLine
    }

    package init(_ chooser: any OutputChoosingBackend, commandLine: Bool) {
        self.init(outputs: chooser.outputs, chosen: chooser.chosenOutput, inUse: chooser.pointerArea.outputName,
                  commandLine: commandLine)
    }
}
