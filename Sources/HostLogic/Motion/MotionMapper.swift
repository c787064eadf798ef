import RemotionProtocol

/// One session's motion mapping: its settings plus the state of the host-side
/// attitude filter and of every mode's mapper. Each session owns one, so several
/// controllers work at once without sharing anything.
///
///     var mapper = MotionMapper(settings: settings)
///     let out = mapper.update(sample, screen: screen)   // per motion sample
///     for event in out.events { injector.post(event) }
package struct MotionMapper: Sendable, Equatable {
    /// Changing the mode restarts the relative-motion baseline of the new mode;
    /// changing the filter restarts the filter. Everything else applies at once.
    package var settings: MappingSettings {
        didSet { settingsChanged(from: oldValue) }
    }

    package private(set) var pointer: PointerModeMapper
    package private(set) var fps: GyroMouseMapper
    package private(set) var seed: SeedPointerMapper
    private var filter: AttitudeFilter

    package init(settings: MappingSettings = MappingSettings()) {
        self.settings = settings
        pointer = PointerModeMapper(settings: settings.pointer, sensitivity: settings.sensitivity)
        fps = GyroMouseMapper(settings: settings.fps, sensitivity: settings.sensitivity)
        seed = SeedPointerMapper(settings: settings.seed, sensitivity: settings.sensitivity)
        filter = AttitudeFilter(settings.filter)
    }

    /// Maps one motion sample. Time comes from the sample's own timestamp.
    /// Samples without a usable attitude give no output in the absolute modes.
    package mutating func update(_ sample: MotionSample, screen: ScreenGeometry) -> PointerOutput {
        var attitude: Attitude?
        if let raw = sample.attitude, raw.isFinite {
            attitude = filter.filter(raw, at: Double(sample.timestampMicros) / 1e6)
        }
        switch settings.mode {
        case .pointer:
            guard let a = attitude else { return .none }
            pointer.settings = settings.pointer
            pointer.sensitivity = settings.sensitivity
            return pointer.update(a, screen: screen)
        case .seed:
            guard let a = attitude else { return .none }
            seed.settings = settings.seed
            seed.sensitivity = settings.sensitivity
            return seed.update(a, screen: screen)
        case .fps:
            fps.settings = settings.fps
            fps.sensitivity = settings.sensitivity
            let d = fps.update(sample, attitude: attitude, screen: screen)
            return PointerOutput(moveTo: nil, moveBy: d)
        }
    }

    /// The direction the controller points at on the next sample becomes the
    /// screen centre (pointer and seed modes; FPS mode has no centre).
    package mutating func recenter() {
        pointer.recenter()
        seed.recenter()
    }

    /// Switches pointer ↔ FPS; from seed mode it goes to pointer mode.
    package mutating func toggleMode() {
        settings.mode = settings.mode == .pointer ? .fps : .pointer
    }

    private mutating func settingsChanged(from old: MappingSettings) {
        if settings.mode != old.mode {
            pointer.resetBaseline()
            seed.resetBaseline()
            fps.reset()
        }
        if settings.filter != old.filter {
            filter = AttitudeFilter(settings.filter)
        }
    }
}
