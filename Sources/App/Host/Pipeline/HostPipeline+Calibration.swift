import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// Calibration memory (docs/MOTION.md, "Calibration memory"): each controller's gyro
/// calibration is remembered under its identity and put back when it comes again. The core
/// (`PipelineCore.identify`, `.calibration` outputs) decides; the store keeps and writes.
///
/// Identities: a phone's page by its device id and a UDP controller by its static key, both
/// known when the session opens (here); a DSU pad by the MAC its server reports and a local
/// pad by its uniq, which their adapters know and give with `identify` right after opening
/// (`open(from:name:calibrationKey:now:)`), before its first sample.
extension HostPipeline {
    /// The identity of a session from what its opening says: the web device, the UDP
    /// controller's static key (nil for plain datagrams: nothing names the controller).
    func calibrationKey(_ id: SessionID, origin: HostControllerOrigin) -> String? {
        switch origin {
        case .web(let device, _): ControllerCalibrationKey.web(device: device)
        case .udp: driver?.peerKey(of: id).flatMap(ControllerCalibrationKey.udp(staticKey:))
        case .dsu, .localPad: nil
        }
    }

    /// Names `id`'s controller for calibration memory and restores what the store remembers
    /// of it (aged). Returns whether a calibration was put back.
    @discardableResult
    package func identify(_ id: SessionID, as key: String, now: Instant) -> Bool {
        let restored = engine.identify(id, as: key, restoring: calibrations?.recall(key), now: now)
        if restored { logger.info("gyro calibration restored", metadata: ["session": "\(id)", "controller": "\(key)"]) }
        return restored
    }
}
