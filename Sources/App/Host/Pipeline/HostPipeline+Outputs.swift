import RemotionHostLogic

/// What choosing the output came to (`HostPipeline.chooseOutput`, the dashboard's PUT /api/output).
package enum OutputChoice: Sendable, Equatable {
    /// The pointer covers `name` now (or already did): the outputs as they are now.
    case chosen(PointerOutputs)
    /// The compositor has no output of that name: the one line to show (it lists the outputs).
    case unknown(String)
    /// The injector has no outputs (XTest, uinput, libei, log): absolute motion covers the whole screen.
    case noOutputs(injector: String)
    /// `--output NAME` was given: the command line decides.
    case commandLine(String)
    /// The injector failed while it changed the pointer (the compositor went away): one line.
    case failed(String)
}

extension HostPipeline {
    /// The outputs for the status snapshot; nil when the injector has none.
    package var pointerOutputs: PointerOutputs? {
        injector.backend.outputChoosing.map { PointerOutputs($0, commandLine: outputFromCommandLine) }
    }

    /// The person chose the output `name` (the dashboard): on success the pointer covers it
    /// from the next event on, what the injector held is released (its pointer is a new one),
    /// and the host says so in one line. Runs on the host's loop, like every injection.
    package func chooseOutput(_ name: String) -> OutputChoice {
        guard let chooser = injector.backend.outputChoosing else { return .noOutputs(injector: injector.backend.name) }
        guard !outputFromCommandLine else {
            return .commandLine("the command line decides the output (--output \(chooser.chosenOutput ?? "")); "
                                + "start the host without --output to choose it here")
        }
        do throws(InjectionError) {
            if let line = try chooser.choose(output: name) {
                if let error = injector.releaseEverything() { injectorOutput.fail(error) }
                for hook in outputHooks { hook.pointerAreaChanged() }   // the laser's dot follows
                logger.notice("\(line)")
            }
        } catch {
            if error.kind == .unsupported { return .unknown(error.message) }
            injectorOutput.fail(error)
            return .failed(error.description)
        }
        return .chosen(PointerOutputs(chooser, commandLine: false))
    }
}
