"""The phone page in WebKitGTK for e2e/web/test_webkit_page.py: MiniBrowser driven by Debian's
WebKitWebDriver (selenium 4.51's webdriver.WebKitGTK), the phone's sensors the test provides
itself, input through WebDriver actions, and the window as the phone's viewport.

What this WebKitGTK (Debian 12, 2.50) lacks, and what stands in for it:
- Motion sensors: it is built without DEVICE_ORIENTATION, so DeviceOrientationEvent and
  DeviceMotionEvent do not exist, and WebKit has no sensor emulation like Chromium's CDP
  (Emulation.setSensorOverride*). IOS_SENSORS installs iOS's surface in the page: both
  constructors with iOS 13's static requestPermission() (it rejects with NotAllowedError
  unless called while a tap's trusted event is being handled, as iOS does, and otherwise resolves to the answer the test set:
  'granted' as on an iPhone whose user tapped Allow, or 'denied'), and dispatches
  devicemotion and deviceorientation at 60 Hz, as iOS does, with the angles the test sets.
  These are fakes standing in for hardware that cannot exist here; every other part (the
  page's permission flow, listeners, frames, the host, XTest, X) is the real one.
- WebRTC: no RTCPeerConnection, even with --enable-webrtc=true, so the page takes its
  WebSocket path; the data-channel path is not exercised in WebKit here.
- Touch: WebKitWebDriver delivers "touch" pointer actions as pointerType "mouse" (no touch
  screen on X), and every touch input source as that one mouse pointer. A pen source gets a
  pointerId of its own, but once the page calls preventDefault() on its pointerdown (the page
  does, as a phone page must) its moves and its pointerup never arrive. So one finger is the
  driver's mouse pointer (real WebKit input), and two fingers are PointerEvents of type
  "touch" that the test dispatches on the element (TWO_FINGERS; untrusted, no pointer
  capture: the page's gesture code and the host run, WebKit's input routing does not).
- Device metrics: no emulation; the window is resized so that the web view is w×h CSS px
  (device pixel ratio 1). MiniBrowser's toolbar keeps its window at least 447 px wide, so a
  GTK stylesheet (gtk-3.0/gtk.css under the browser's own XDG_CONFIG_HOME) shrinks GTK's
  widgets; it styles the toolbar only, never the web content (text and control metrics in the
  page measured the same with and without it).
- TLS: the host's page certificate is issued by its own local CA. WebKitGTK trusts only the
  system store, and a test may not change that, so the session allows exactly the host's
  server certificate for 127.0.0.1 (WebKitWebDriver's webkitgtk:browserOptions "certificates",
  i.e. webkit_web_context_allow_tls_certificate_for_host) instead of acceptInsecureCerts,
  which would accept any certificate. A browser without that allowance is refused the page.
"""
import os

from selenium import webdriver
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from page_harness import center_of, js, wait

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
GTK_CSS = ("headerbar, toolbar, .toolbar, entry, button, box "
           "{ min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 1px; border-width: 0; }\n")

IOS_SENSORS = """
if (window.__sensors) return false;
const s = { alpha: 0, beta: 0, gamma: 0, answer: arguments[0], asked: [] };
// iOS answers only a call made while a tap's event is being handled (not after an await):
// window.event is the trusted input event being dispatched, else undefined.
const GESTURES = ["click", "pointerup", "pointerdown", "mouseup", "mousedown", "touchend", "keydown", "keyup"];
function ask() {
  const e = window.event, inTap = !!(e && e.isTrusted && GESTURES.includes(e.type));
  s.asked.push(inTap);
  if (!inTap) return Promise.reject(new DOMException("requestPermission needs a user gesture", "NotAllowedError"));
  return Promise.resolve(s.answer);
}
class DeviceOrientationEvent extends Event {
  constructor(type, o = {}) { super(type, o); this.alpha = o.alpha ?? null; this.beta = o.beta ?? null;
                              this.gamma = o.gamma ?? null; this.absolute = false; }
  static requestPermission() { return ask(); }
}
class DeviceMotionEvent extends Event {
  constructor(type, o = {}) { super(type, o); this.acceleration = o.acceleration ?? null;
    this.accelerationIncludingGravity = o.accelerationIncludingGravity ?? null;
    this.rotationRate = o.rotationRate ?? null; this.interval = o.interval ?? 16; }
  static requestPermission() { return ask(); }
}
window.DeviceOrientationEvent = DeviceOrientationEvent;
window.DeviceMotionEvent = DeviceMotionEvent;
setInterval(() => {   // flat, face up, still: gravity on +z (W3C), the angles the test set
  dispatchEvent(new DeviceMotionEvent("devicemotion", { acceleration: { x: 0, y: 0, z: 0 },
    accelerationIncludingGravity: { x: 0, y: 0, z: 9.80665 }, rotationRate: { alpha: 0, beta: 0, gamma: 0 } }));
  dispatchEvent(new DeviceOrientationEvent("deviceorientation", { alpha: s.alpha, beta: s.beta, gamma: s.gamma }));
}, 16);
window.__sensors = s;
return true;
"""


class _Options(Options):
    """WebKitGTK's options plus the browser option selenium has no setter for: certificates."""
    def __init__(self, certificates):
        super().__init__()
        self.certificates = certificates

    def to_capabilities(self):
        caps = super().to_capabilities()
        if self.certificates:
            caps[Options.KEY]["certificates"] = self.certificates
        return caps


def browser(display, home, cert=None, host="127.0.0.1"):
    """MiniBrowser on X display `display`, its GTK config, cache and data under `home`; `cert`: the
    PEM server certificate allowed for `host` (None: nothing allowed beyond the system store)."""
    gtk = os.path.join(home, "config", "gtk-3.0")
    os.makedirs(gtk, exist_ok=True)
    with open(os.path.join(gtk, "gtk.css"), "w") as f:
        f.write(GTK_CSS)
    o = _Options([{"host": host, "certificateFile": cert}] if cert else [])
    o.binary_location = MINIBROWSER
    o.add_argument("--automation")
    o.add_argument("--enable-webrtc=true")   # asked for; this build still has no RTCPeerConnection
    env = dict(os.environ, DISPLAY=display, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_DATA_HOME=os.path.join(home, "data"))
    return webdriver.WebKitGTK(options=o, service=Service("/usr/bin/WebKitWebDriver", env=env,
                                                          log_output=os.path.join(home, "webdriver.log")))


def install_sensors(d, answer="granted"):
    return d.execute_script(IOS_SENSORS, answer)


def orient(d, alpha, beta, gamma):
    js(d, "(() => { const s = window.__sensors; s.alpha = arguments[0]; s.beta = arguments[1];"
          " s.gamma = arguments[2]; return true; })()", alpha % 360, beta, gamma)


def resize(d, w, h):
    """The web view w×h CSS px: the window is that plus the toolbar's height (measured)."""
    chrome_w, chrome_h = js(d, "[outerWidth - innerWidth, outerHeight - innerHeight]")
    d.set_window_rect(width=w + chrome_w, height=h + chrome_h)
    return wait(lambda: js(d, "[innerWidth, innerHeight]") == [w, h], 2)


# ── input: WebDriver pointer actions; one finger is the driver's mouse pointer ───────────
def _finger():
    return PointerInput(interaction.POINTER_MOUSE, "finger")


def _at(selector_or_point, d):
    c = center_of(d, selector_or_point) if isinstance(selector_or_point, str) else selector_or_point
    return round(c["x"]), round(c["y"])


def press(d, where):
    """The finger goes down on `where` and stays (until lift)."""
    a = ActionBuilder(d, mouse=_finger())
    x, y = _at(where, d)
    a.pointer_action.move_to_location(x, y).pointer_down()
    a.perform()


def lift(d):
    a = ActionBuilder(d, mouse=_finger())
    a.pointer_action.pointer_up()
    a.perform()


def tap(d, where, hold=0.12):
    a = ActionBuilder(d, mouse=_finger())
    x, y = _at(where, d)
    a.pointer_action.move_to_location(x, y).pointer_down().pause(hold).pointer_up()
    a.perform()


def gesture(d, where, dx, dy, steps=10, hold=0.0, step_ms=20):
    """One finger (the driver's mouse pointer) goes down at `where`, rests `hold` seconds,
    moves by (dx, dy) in `steps` steps of `step_ms`, and lifts."""
    x, y = _at(where, d)
    finger = _finger()
    a = ActionBuilder(d, mouse=finger)
    finger.create_pointer_move(x=x, y=y, origin="viewport")
    finger.create_pointer_down(button=0)
    if hold:
        finger.create_pause(hold)
    for k in range(1, steps + 1):
        finger.create_pointer_move(x=round(x + dx * k / steps), y=round(y + dy * k / steps), origin="viewport",
                                   duration=step_ms)
    finger.create_pointer_up(button=0)
    a.perform()


TWO_FINGERS = """
const [el, dx, dy, steps] = arguments, r = el.getBoundingClientRect();
const x = r.left + r.width / 2, y = r.top + r.height / 2;
const fire = (type, id, px, py) => el.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: "touch",
  isPrimary: id === 11, clientX: px, clientY: py, bubbles: true, cancelable: true, composed: true,
  buttons: type === "pointerup" ? 0 : 1 }));
fire("pointerdown", 11, x - 20, y); fire("pointerdown", 12, x + 20, y);
for (let k = 1; k <= steps; k++) {
  fire("pointermove", 11, x - 20 + dx * k / steps, y + dy * k / steps);
  fire("pointermove", 12, x + 20 + dx * k / steps, y + dy * k / steps);
}
fire("pointerup", 11, x - 20 + dx, y + dy); fire("pointerup", 12, x + 20 + dx, y + dy);
return true;
"""


def two_fingers(d, selector, dx=0, dy=0, steps=10):
    """Two fingers 40 px apart go down on `selector`, slide by (dx, dy) in `steps` moves (0: a
    tap, no pointermove at all), and lift; see the module's note on touch."""
    return d.execute_script(TWO_FINGERS, d.find_element(By.CSS_SELECTOR, selector), dx, dy, steps)
