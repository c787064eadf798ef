import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// The page's touchpad, typing and presenter verbs of `ExternalControllerHost` on the real host.
extension PipelineControllers {
    package func buttonLabels(_ id: SessionID) async -> WebInputReply? {
        try? await loop.onLoop { $0.pipeline.buttonLabels(id) }
    }

    package func input(_ id: SessionID, _ message: WebInputMessage) async -> WebInputReply? {
        // Moves, scrolls, clicks, keys and the laser need no answer: hand them over in
        // order without waiting (like motion). Text waits for what could not be typed.
        guard case .text = message else {
            loop.execute { $0.pipeline.webInput(id, message) }
            return nil
        }
        return (try? await loop.onLoop { $0.pipeline.webInput(id, message) }) ?? nil
    }
}
