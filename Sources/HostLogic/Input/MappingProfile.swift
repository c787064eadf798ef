import RemotionProtocol

/// What a controller's motion and buttons mean: the mapping settings (mode, sensitivity,
/// filters, gyro) and the button map. The host has one, from the config file and the
/// dashboard; a session may be given its own at run time (a presenter page, a
/// per-application profile) and then keeps it when the host's changes.
package struct MappingProfile: Sendable, Equatable {
    package var settings: MappingSettings
    package var buttons: ButtonMap

    package init(settings: MappingSettings = MappingSettings(), buttons: ButtonMap = .seedDefault) {
        self.settings = settings
        self.buttons = buttons
    }

    /// Motion moves the pointer only while a `hold-to-enable-motion` button is held.
    package var gatesMotion: Bool { buttons.gatesMotion }
}
