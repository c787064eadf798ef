#if canImport(CoreGraphics) && os(macOS)
import ApplicationServices
import CoreGraphics
import RemotionProtocol
import RemotionHostLogic

/// Injects on macOS with Quartz events posted to the HID event tap, as the
/// seed's MotionInjector / ButtonInjector did: motion events carry
/// kCGMouseEventDeltaX/Y (for games that read deltas) and the seed's flags
/// (256, kCGEventFlagMaskNonCoalesced); button events carry a click state;
/// keys use the keysym -> virtual key code table (`KeyCodeTables.macVirtual`).
/// Needs the Accessibility permission. Events are posted at once; flush() has
/// nothing to do.
package final class CGEventBackend: InjectorBackend {
    package let name = "cgevent"
    private var position: CGPoint
    private var buttonsDown: Set<MouseButton> = []
    private var modifiersDown: Set<Key> = []
    private var isClosed = false

    /// Fails with instructions when the process may not post events.
    package init() throws(InjectionError) {
        guard AXIsProcessTrusted() else {
            throw InjectionError(.unavailable, backend: "cgevent",
                                 "this program may not control the computer: open System Settings > Privacy & Security > "
                                 + "Accessibility, add (or switch on) the terminal or app that runs remotion, then start it again")
        }
        position = CGEvent(source: nil)?.location ?? .zero
    }

    package func screenGeometry() -> ScreenGeometry {
        let bounds = CGDisplayBounds(CGMainDisplayID())
        return ScreenGeometry(width: Int(bounds.width), height: Int(bounds.height))
    }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "posted after close()") }
        switch event {
        case .moveTo(let x, let y):
            let target = clamped(CGPoint(x: x, y: y))
            try move(to: target, delta: CGPoint(x: target.x - position.x, y: target.y - position.y))
        case .moveBy(let dx, let dy):
            try move(to: clamped(CGPoint(x: position.x + CGFloat(dx), y: position.y + CGFloat(dy))),
                     delta: CGPoint(x: dx, y: dy))
        case .button(let b, let down):
            let (type, cgButton) = Self.mouseType(b, down: down)
            guard let e = CGEvent(mouseEventSource: nil, mouseType: type, mouseCursorPosition: position,
                                  mouseButton: cgButton) else { throw failure("mouse button event") }
            e.setIntegerValueField(.mouseEventClickState, value: 1)
            if down { buttonsDown.insert(b) } else { buttonsDown.remove(b) }
            e.post(tap: .cghidEventTap)
        case .key(let k, let down):
            guard let code = KeyCodeTables.macVirtual(k) else {
                throw InjectionError(.unsupported, backend: name,
                                     "key \(k.name) (keysym 0x\(String(k.keysym, radix: 16))) has no macOS key code")
            }
            if Self.modifierFlag(k) != nil {
                if down { modifiersDown.insert(k) } else { modifiersDown.remove(k) }
            }
            guard let e = CGEvent(keyboardEventSource: nil, virtualKey: CGKeyCode(code), keyDown: down) else {
                throw failure("keyboard event")
            }
            e.flags = modifiersDown.reduce(into: CGEventFlags()) { flags, m in
                if let f = Self.modifierFlag(m) { flags.insert(f) }
            }
            e.post(tap: .cghidEventTap)
        case .wheel(let dx, let dy):
            // wheel1 > 0 scrolls up; wheel2 > 0 scrolls left (hence -dx). Unverified here (no Mac).
            guard let e = CGEvent(scrollWheelEvent2Source: nil, units: .line, wheelCount: 2,
                                  wheel1: Int32(clamping: dy), wheel2: Int32(clamping: -dx), wheel3: 0) else {
                throw failure("scroll event")
            }
            e.post(tap: .cghidEventTap)
        }
    }

    package func flush() throws(InjectionError) {}

    package func close() { isClosed = true }

    private func move(to target: CGPoint, delta: CGPoint) throws(InjectionError) {
        let (type, button) = motionType()
        guard let e = CGEvent(mouseEventSource: nil, mouseType: type, mouseCursorPosition: target,
                              mouseButton: button) else { throw failure("motion event") }
        e.setIntegerValueField(.mouseEventDeltaX, value: Int64(delta.x.rounded()))
        e.setIntegerValueField(.mouseEventDeltaY, value: Int64(delta.y.rounded()))
        e.flags = CGEventFlags(rawValue: 256)
        e.post(tap: .cghidEventTap)
        position = target
    }

    /// While a button is down the system expects drag events.
    private func motionType() -> (CGEventType, CGMouseButton) {
        if buttonsDown.contains(.left) { return (.leftMouseDragged, .left) }
        if buttonsDown.contains(.right) { return (.rightMouseDragged, .right) }
        if !buttonsDown.isEmpty { return (.otherMouseDragged, .center) }
        return (.mouseMoved, .left)
    }

    private func clamped(_ p: CGPoint) -> CGPoint {
        let s = screenGeometry()
        return CGPoint(x: min(max(p.x, 0), CGFloat(max(s.width - 1, 0))),
                       y: min(max(p.y, 0), CGFloat(max(s.height - 1, 0))))
    }

    private func failure(_ what: String) -> InjectionError {
        InjectionError(.failed, backend: name, "could not create a \(what)")
    }

    static func mouseType(_ b: MouseButton, down: Bool) -> (CGEventType, CGMouseButton) {
        switch b {
        case .left: (down ? .leftMouseDown : .leftMouseUp, .left)
        case .right: (down ? .rightMouseDown : .rightMouseUp, .right)
        case .middle: (down ? .otherMouseDown : .otherMouseUp, .center)
        case .back: (down ? .otherMouseDown : .otherMouseUp, CGMouseButton(rawValue: 3) ?? .center)
        case .forward: (down ? .otherMouseDown : .otherMouseUp, CGMouseButton(rawValue: 4) ?? .center)
        }
    }

    static func modifierFlag(_ k: Key) -> CGEventFlags? {
        switch k.keysym {
        case 0xffe1, 0xffe2: .maskShift
        case 0xffe3, 0xffe4: .maskControl
        case 0xffe9, 0xffea: .maskAlternate
        case 0xffeb, 0xffec: .maskCommand
        default: nil
        }
    }
}
#endif
