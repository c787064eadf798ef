import RemotionApp
import RemotionDashboard
import RemotionMotion
import RemotionTransport

/// Applies dashboard changes on the host's loop (what `remotion host` does too, plus
/// saving its config file). The dashboard awaits the hop; the loop never waits for it.
struct LoopSettingsControl: SettingsControl {
    let host: HostService<PlainFraming>

    func apply(key: String, value: String) async throws -> MappingSettings {
        try await host.onLoop { handler in
            guard let pipeline = handler.sink as? HostPipeline else { return MappingSettings() }
            var settings = pipeline.settings
            try settings.set(key, to: value)
            pipeline.update(settings: settings)
            return settings
        }
    }

    func current() async -> MappingSettings {
        (try? await host.onLoop { ($0.sink as? HostPipeline)?.settings ?? MappingSettings() }) ?? MappingSettings()
    }
}
