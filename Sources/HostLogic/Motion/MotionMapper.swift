import RemotionProtocol

/// One session's motion mapping: its settings plus the state of its gyro pipeline
/// (calibration, fusion, clutch), the host-side attitude filter and every mode's
/// mapper. Each session owns one, so several controllers work at once without sharing
/// anything (each has its own gyro bias).
///
///     var mapper = MotionMapper(settings: settings)
///     let out = mapper.update(sample, screen: screen)   // per motion sample
///     if let p = out.moveTo { try injector.apply(.moveTo(x: p.x, y: p.y), session: id) }
///
/// Every sample goes through `raw` first. A sample with gyro but no attitude (raw
/// sensors) gets the fused attitude, so pointer and seed modes work from raw sensors;
/// FPS mode maps the calibrated gyro-space rates of every sample with gyro, and the
/// clutch (`fps.clutch`) gates its output.
package struct MotionMapper: Sendable, Equatable {
    /// Changing the mode restarts the relative-motion baseline of the new mode;
    /// changing the filter restarts the filter. Everything else applies at once.
    package var settings: MappingSettings {
        didSet { settingsChanged(from: oldValue) }
    }

    package private(set) var pointer: PointerModeMapper
    package private(set) var fps: GyroMouseMapper
    package private(set) var seed: SeedPointerMapper
    /// Calibration, fusion, gyro space and clutch (docs/MOTION.md, "Raw sensors").
    package private(set) var raw: RawMotionPipeline
    /// The last sample's attitude before the host-side filter: the controller's own, or
    /// fused from its raw sensors (nil when it had neither).
    package private(set) var attitude: Attitude?
    private var filter: AttitudeFilter
    /// FPS mode's flick stick (`flick.stick`), nil when off.
    private var flick: FlickStick?

    package init(settings: MappingSettings = MappingSettings()) {
        self.settings = settings
        pointer = PointerModeMapper(settings: settings.pointer, sensitivity: settings.sensitivity)
        fps = GyroMouseMapper(settings: settings.fps, sensitivity: settings.sensitivity)
        seed = SeedPointerMapper(settings: settings.seed, sensitivity: settings.sensitivity)
        filter = AttitudeFilter(settings.filter)
        var rawSettings = RawMotionPipeline.Settings()
        rawSettings.apply(settings)
        raw = RawMotionPipeline(settings: rawSettings)
        flick = settings.flick.make(countsPer360: settings.fps.countsPer360)
    }

    /// Maps one motion sample. Time comes from the sample's own timestamp.
    /// Samples with neither an attitude nor gyro give no output in the absolute modes.
    package mutating func update(_ sample: MotionSample, screen: ScreenGeometry) -> PointerOutput {
        let processed = raw.process(sample)
        self.attitude = processed.attitude
        var attitude: Attitude?
        if let a = processed.attitude, a.isFinite {
            attitude = filter.filter(a, at: Double(sample.timestampMicros) / 1e6)
        }
        switch settings.mode {
        case .pointer:
            guard let a = attitude else { return .none }
            return pointer.update(a, screen: screen)
        case .seed:
            guard let a = attitude else { return .none }
            return seed.update(a, screen: screen)
        case .fps:
            var d = (dx: 0, dy: 0)
            if !processed.gyroEnabled {
                fps.reset()                          // clutch disengaged: no leftover motion later
            } else if processed.isProcessed {
                d = fps.update(yawRate: processed.yawRate, pitchRate: processed.pitchRate,
                               timestampMicros: sample.timestampMicros, attitude: attitude, screen: screen)
            } else {
                d = fps.update(sample, attitude: attitude, screen: screen)
            }
            // The stick turns whatever the clutch says; the sum saturates like each part does
            // (found by FuzzHost: the gyro's ±1e9 plus a flick's counts left that range).
            if flick != nil { d.dx = MotionMath.saturated(Double(d.dx) + Double(flickCounts(sample)), limit: MotionMath.maxCounts) }
            return PointerOutput(moveTo: nil, moveBy: d)
        }
    }

    /// The flick stick's counts for this sample's stick (centred when it has none). A flick
    /// runs on over the next samples' times: a controller streams at 60 Hz or more, so a
    /// 0.1 s flick spreads over six samples or more.
    private mutating func flickCounts(_ sample: MotionSample) -> Int {
        let a = sample.analog ?? AnalogState()
        let (x, y) = settings.flick.stick == .left ? (a.leftX, a.leftY) : (a.rightX, a.rightY)
        let now = Instant(nanoseconds: Int64(clamping: sample.timestampMicros) &* 1_000)
        return Int(flick?.stick(x: x, y: y, at: now).counts ?? 0)
    }

    /// Feeds a sample whose output is not wanted (motion paused or held off) to the gyro
    /// pipeline only, so calibration, fusion and the clutch keep up with the controller.
    package mutating func observe(_ sample: MotionSample) {
        attitude = raw.process(sample).attitude
        flick?.reset()
    }

    /// Starts a manual gyro calibration over the next `calibration.duration` seconds of
    /// samples (the `calibrate` host command, the dashboard's button). False when
    /// `calibration.mode = off`.
    @discardableResult
    package mutating func calibrate() -> Bool {
        raw.beginManualCalibration(durationSeconds: settings.sensors.calibrationDuration)
    }

    /// Puts back a remembered calibration (`RawMotionPipeline.restoreCalibration`).
    package mutating func restoreCalibration(_ c: GyroCalibration) {
        raw.restoreCalibration(bias: c.bias, confidence: c.confidence, weight: c.weight)
    }

    /// The gyro's calibration and clutch for the status views; nil before any gyro sample.
    package var gyroStatus: GyroStatus? { raw.status }

    /// The direction the controller points at on the next sample becomes the
    /// screen centre (pointer and seed modes; FPS mode has no centre).
    package mutating func recenter() {
        pointer.recenter()
        seed.recenter()
    }

    /// Starts the mapping afresh, as a new profile takes over (docs/MOTION.md, "Profiles"):
    /// every mode's baseline, FPS smoothing and sub-pixel remainder, the flick stick and the
    /// attitude filter forget the past, and the next sample's direction is the centre. The
    /// gyro's calibration and fusion go on: they are the controller's, not the profile's.
    package mutating func restart() {
        pointer.resetBaseline()
        seed.resetBaseline()
        fps.reset()
        flick?.reset()
        filter = AttitudeFilter(settings.filter)
        recenter()
    }

    /// Switches pointer ↔ FPS; from seed mode it goes to pointer mode.
    package mutating func toggleMode() {
        settings.mode = settings.mode == .pointer ? .fps : .pointer
    }

    /// Settings reach the mode mappers when they change, never per sample.
    private mutating func settingsChanged(from old: MappingSettings) {
        if settings.pointer != old.pointer || settings.sensitivity != old.sensitivity {
            pointer.settings = settings.pointer
            pointer.sensitivity = settings.sensitivity
        }
        if settings.seed != old.seed || settings.sensitivity != old.sensitivity {
            seed.settings = settings.seed
            seed.sensitivity = settings.sensitivity
        }
        if settings.fps != old.fps || settings.sensitivity != old.sensitivity {
            fps.settings = settings.fps
            fps.sensitivity = settings.sensitivity
        }
        if settings.mode != old.mode {
            pointer.resetBaseline()
            seed.resetBaseline()
            fps.reset()
            flick?.reset()
        }
        if settings.flick != old.flick || settings.fps.countsPer360 != old.fps.countsPer360 {
            flick = settings.flick.make(countsPer360: settings.fps.countsPer360)
        }
        if settings.filter != old.filter {
            filter = AttitudeFilter(settings.filter)
        }
        if settings.fps.space != old.fps.space || settings.fps.clutch != old.fps.clutch
            || settings.sensors != old.sensors {
            raw.settings.apply(settings)
        }
    }
}

extension RawMotionPipeline.Settings {
    /// Takes the user-facing keys (`fps.space`, `fps.clutch`, `calibration.*`,
    /// `sensors.accelerometer`) from the mapping settings; the tuning stays as it is.
    package mutating func apply(_ m: MappingSettings) {
        space = m.fps.space
        clutch = m.fps.clutch
        calibration.mode = m.sensors.calibrationMode
        restGate = m.sensors.restGate
        accelerometer = m.sensors.accelerometer
    }
}
