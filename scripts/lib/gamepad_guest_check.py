"""Checks what the gamepad guest recorded (scripts/gamepad-guest-test.sh). Last line:
N passed, N failed."""
import json, os, sys

results = sys.argv[1]
passed = failed = 0
def check(ok, what):
    global passed, failed
    print(("ok   " if ok else "FAIL ") + what)
    if ok: passed += 1
    else: failed += 1
    return ok

# The guest's pace (scripts/lib/guest-helpers.sh: how many times slower its emulated CPU ran than
# on an idle machine, 1 to 10): the guest's own slack below stretches by it, as its waits do.
try:
    pace = min(10.0, max(1.0, float(open(os.path.join(results, "pace")).read())))
except (OSError, ValueError):
    pace = 1.0

EV_KEY, EV_ABS, EV_MSC = 1, 3, 4
BTN_SOUTH, MSC_TIMESTAMP = 0x130, 0x05
ABS_X, ABS_Y, ABS_Z, ABS_RX, ABS_RY, ABS_RZ = range(6)


def axis_values(node, code):
    """An axis's values as the witness saw them: its value when the witness opened the node
    (a host quicker than the witness, the release build, has set it by then: evdev reports
    only changes after that), then every event."""
    at_open = node["abs"].get(str(code), {}).get("value")
    return ([at_open] if at_open is not None else []) + [v for t, c, v in node["events"] if t == EV_ABS and c == code]


def mode(xs):
    """The most frequent value (None for none)."""
    return max(set(xs), key=xs.count) if xs else None


def sweep_plateaus(ry, res, expected):
    """A sweep turns at ±expected °/s: the pad reads each way's plateau within 2% and nothing
    beyond it. evdev sends a value only when it changes, so each plateau is one event, as is
    each value between them (a step the host merged across the turn reads the average rate):
    the plateaus are the extremes, not the most frequent value."""
    rates = [v / res for v in ry]
    top = max(rates, default=0.0); bottom = min(rates, default=0.0)
    ok = (abs(top - expected) <= 0.02 * expected and abs(-bottom - expected) <= 0.02 * expected)
    return ok, f"+{top:.2f} / {bottom:.2f} °/s over {len(rates)} changes"
facts = dict(l.rstrip("\n").split("=", 1) for l in open(os.path.join(results, "facts")) if "=" in l)
guest_env = dict(l.strip().split("=", 1) for l in open(os.path.join(results, "guest.env")) if "=" in l)
host_timeout = float(guest_env.get("HOST_TIMEOUT", "1").strip("'"))
probe = [json.loads(l) for l in open(os.path.join(results, "probe.out")) if l.startswith("{")]
events = {p["event"]: p for p in probe}
check(facts.get("probe_rc") == "0", f"the probe exited 0 (rc {facts.get('probe_rc')}; {open(os.path.join(results, 'probe.err')).read().strip()[:200]})")
check(facts.get("reader_rc") == "0", f"the reader finished (rc {facts.get('reader_rc')})")
check(events.get("destroyed", {}).get("features_answered", 0) >= 3,
      f"every feature report the driver asked was answered: {[p['report'] for p in probe if p['event'] == 'get_report']}")
try:
    info = json.load(open(os.path.join(results, "events.json")))
except (OSError, ValueError) as e:
    check(False, f"no events recorded ({e})"); print(f"{passed} passed, {failed} failed"); sys.exit(1)

uniq = events["created"]["uniq"]
nodes = info["nodes"]
names = sorted(nodes)
pad = next((n for k, n in nodes.items() if not k.endswith(("Motion Sensors", "Touchpad"))), None)
motion = next((n for k, n in nodes.items() if k.endswith("Motion Sensors")), None)
touch = next((n for k, n in nodes.items() if k.endswith("Touchpad")), None)
check(pad and motion and touch, f"hid-playstation made the gamepad, Motion Sensors and Touchpad nodes: {names}")
check(all(n["uniq"] == uniq for n in nodes.values()), f"every node's uniq (EVIOCGUNIQ) is the pad's MAC {uniq}")
check(len(info["hidraw"]) == 1 and info["hidraw"][0]["exists"], f"one hidraw node with HID_UNIQ={uniq}: {[h['node'] for h in info['hidraw']]}")
if not (pad and motion):
    print(f"{passed} passed, {failed} failed"); sys.exit(1)

fed = events["feeding"]["gyro"]
for axis, code, name in [(0, ABS_RX, "ABS_RX"), (1, ABS_RY, "ABS_RY"), (2, ABS_RZ, "ABS_RZ")]:
    res = motion["abs"][str(code)]["resolution"]
    values = [v for t, c, v in motion["events"] if t == EV_ABS and c == code]
    nonzero = [v for v in values if v != 0]
    measured = max(nonzero, key=nonzero.count) / res if nonzero and res else None
    ok = measured is not None and abs(measured - fed[axis]) <= 0.02 * abs(fed[axis])
    check(ok, f"{name}: fed {fed[axis]} °/s, read {measured} °/s (resolution {res} per °/s from EVIOCGABS, within 2%)")
    check(values and values[-1] == 0, f"{name} went to rest (0) before the device went away (last {values[-1] if values else None})")
accel_res = motion["abs"][str(ABS_Y)]["resolution"]
ay = [v for t, c, v in motion["events"] if t == EV_ABS and c == ABS_Y]
check(ay and accel_res and abs(ay[0] / accel_res - 1) <= 0.02, f"ABS_Y (acceleration) reads 1 g: {ay[0] / accel_res if ay and accel_res else None} g (resolution {accel_res})")
stamps = [v for t, c, v in motion["events"] if t == EV_MSC and c == MSC_TIMESTAMP]
check(len(stamps) > 10 and all(b > a for a, b in zip(stamps, stamps[1:])), f"MSC_TIMESTAMP strictly increasing over {len(stamps)} reports")
reports = events["feeding"]["reports"]
check(len(stamps) == reports + 1, f"one MSC_TIMESTAMP per report written ({len(stamps)} for {reports} fed + 1 rest)")
south = [v for t, c, v in pad["events"] if t == EV_KEY and c == BTN_SOUTH]
check(south == [1, 0], f"Cross pressed and released once on the gamepad node as BTN_SOUTH: {south}")
sticks = {c: [v for t, cc, v in pad["events"] if t == EV_ABS and cc == c] for c in (ABS_X, ABS_Y, ABS_RX, ABS_RY, ABS_Z, ABS_RZ)}
rest = {c: (vals[-1] if vals else pad["abs"][str(c)]["value"]) for c, vals in sticks.items()}
check(max(sticks[ABS_X], default=0) == 255 and max(sticks[ABS_RZ], default=0) == 255,
      f"the held left stick (x 255) and R2 (255) arrived: x {sorted(set(sticks[ABS_X]))}, R2 {sorted(set(sticks[ABS_RZ]))}")
check(rest == {ABS_X: 128, ABS_Y: 128, ABS_RX: 128, ABS_RY: 128, ABS_Z: 0, ABS_RZ: 0}, f"gamepad at rest at the end (sticks 128, triggers 0): {rest}")
check(all("gone_after" in n for n in nodes.values()), "all three nodes went away (ENODEV) after the probe stopped")
after = open(os.path.join(results, "devices-after")).read()
check(uniq not in after, "no input device with the pad's uniq in /proc/bus/input/devices afterwards")
hidraw = [h["node"] for h in info["hidraw"]]
left = open(os.path.join(results, "hidraw-after")).read().split()
check(hidraw and not any(h in left for h in hidraw), f"its hidraw node is gone too (left: {left})")

# 1b. SDL2 (Debian's libSDL2 through ctypes), a witness that games use.
import math
check(facts.get("sdl_rc") == "0" and facts.get("sdl_probe_rc") == "0", f"SDL witness and its probe exited 0 (rc {facts.get('sdl_rc')}, {facts.get('sdl_probe_rc')})")
try:
    sdl = json.load(open(os.path.join(results, "sdl.json")))
    sprobe = [json.loads(l) for l in open(os.path.join(results, "sdl-probe.out")) if l.startswith("{")]
except (OSError, ValueError) as e:
    sdl, sprobe = None, []
    check(False, f"SDL witness recorded nothing ({e})")
if sdl:
    suniq = next(p["uniq"] for p in sprobe if p["event"] == "created")
    c = sdl["controllers"][-1]
    check(c["type"] == 7 and c["gyro"] and c["accel"], f"SDL opens the pad as a PS5 controller (type 7) with gyro and accelerometer: {c}")
    check((c["serial"] or "").replace("-", ":") == suniq, f"SDL's serial is the pad's MAC {suniq}: {c['serial']}")
    check(suniq != uniq, f"two pads, two MACs: {uniq} and {suniq}")
    fed_rad = [math.radians(v) for v in next(p["gyro"] for p in sprobe if p["event"] == "feeding")]
    moving = [g for g in sdl["gyro"] if any(g)]
    seen = max(moving, key=moving.count) if moving else None
    ok = seen is not None and all(abs(a - b) <= 0.02 * abs(b) for a, b in zip(seen, fed_rad))
    check(ok, f"SDL reads the rotation in rad/s: {seen} for {[round(v, 4) for v in fed_rad]} (within 2%)")
    accel = sdl["accel"][-1] if sdl["accel"] else None
    check(accel is not None and abs(accel[1] - 9.80665) <= 0.02 * 9.80665 and abs(accel[0]) < 0.2 and abs(accel[2]) < 0.2,
          f"SDL reads gravity on y: {accel} m/s²")
    outputs = [p for p in sprobe if p["event"] == "output"]
    rumble = [(p["rumble_left"], p["rumble_right"]) for p in outputs if p["rumble_left"] or p["rumble_right"]]
    # SDL writes the high byte of each motor (some SDL versions halve it to match Xbox pads).
    check(sdl.get("rumble_rc") == 0 and rumble and rumble[0] in [(0xFFFF >> 8, 0x8000 >> 8), (0xFFFF >> 9, 0x8000 >> 9)],
          f"SDL's rumble (low 0xFFFF, high 0x8000) reaches the pad as motors (left, right) = {rumble}")
    destroyed = next(p for p in sprobe if p["event"] == "destroyed")
    check(len(outputs) >= 1, f"SDL's output reports (Bluetooth, CRC 0xA2) reached the pad and parsed: {len(outputs)}")
    check(destroyed["features_refused"] == 0, f"every feature report SDL and the driver asked was answered ({destroyed['features_answered']}, none refused)")

# 2. remotion host --gamepad dualsense, a controller that sweeps and presses A, then leaves.
def load(name):
    try: return json.load(open(os.path.join(results, name)))
    except (OSError, ValueError) as e: check(False, f"{name}: nothing recorded ({e})"); return None
def parts(info):
    nodes = info["nodes"]
    pad = next(n for k, n in nodes.items() if not k.endswith(("Motion Sensors", "Touchpad")))
    motion = next(n for k, n in nodes.items() if k.endswith("Motion Sensors"))
    return nodes, pad, motion
check(facts.get("client_rc") == "0", f"host: the sweeping controller streamed and exited 0 (rc {facts.get('client_rc')})")
host = load("host-events.json")
if host:
    nodes, hpad, hmotion = parts(host)
    check(len(nodes) == 3 and all(n["uniq"] == host["uniq"] for n in nodes.values()),
          f"host: the controller's pad has its three nodes with one uniq {host['uniq']}")
    res = hmotion["abs"][str(ABS_RY)]["resolution"]
    ry = [v for t, c, v in hmotion["events"] if t == EV_ABS and c == ABS_RY]
    expected = math.degrees(4 * 0.3 / 2.0)   # synthetic:sweep: yaw rate ±4·amplitude/period
    ok, said = sweep_plateaus(ry, res, expected)
    check(ok, f"host: the controller's yaw rate (sweep, ±{expected:.2f} °/s) reads on ABS_RY: {said} (within 2%)")
    check(ry and ry[-1] == 0, f"host: ABS_RY at rest (0) when the controller left (last {ry[-1] if ry else None})")
    # --gyro-stick: the yaw rate deflects the right stick by rate / 360 °/s, both ways, and
    # the stick is centred again at rest (the codec: (v + 1) · 127.5, rounded).
    rx = [v for t, c, v in hpad["events"] if t == EV_ABS and c == ABS_RX]
    want = sorted({round((1 + expected / 360) * 127.5), round((1 - expected / 360) * 127.5)})
    got = sorted({mode([v for v in rx if v > 128]) or 0, mode([v for v in rx if v < 128]) or 0})
    check(all(abs(g - w) <= 1 for g, w in zip(got, want)) and rx and rx[-1] == 128,
          f"host --gyro-stick: the yaw rate deflects the right stick (ABS_RX) to {want} (±1), centred at rest: {got}, last {rx[-1] if rx else None}")
    south = [v for t, c, v in hpad["events"] if t == EV_KEY and c == BTN_SOUTH]
    check((hpad["south_at_open"] == 1 or 1 in south) and south and south[-1] == 0,
          f"host: A pressed Cross (BTN_SOUTH) and released it: at open {hpad['south_at_open']}, then {south}")
    # The controller's own sticks and triggers (--analog lx=1,ly=-0.5,r2=0.5, the motion
    # packet's analog field): left stick x 255, y round(0.5 · 127.5) = 64, R2 round(0.5 · 255)
    # = 128, each back to rest (128, 128, 0) when the controller left.
    lx, ly, r2 = axis_values(hpad, ABS_X), axis_values(hpad, ABS_Y), axis_values(hpad, ABS_RZ)
    check(255 in lx and 64 in ly and 128 in r2 and lx[-1] == 128 and ly[-1] == 128 and r2[-1] == 0,
          f"host: the controller's sticks and triggers arrive exactly (left x 255, y 64, R2 128) and rest at the end: "
          f"x {sorted(set(lx))} last {lx[-1] if lx else None}, y {sorted(set(ly))}, R2 {sorted(set(r2))} last {r2[-1] if r2 else None}")
    check(all("gone_after" in n for n in nodes.values()), "host: the pad went away when its controller left")
kill = load("kill-events.json")
if kill:
    nodes, kpad, _ = parts(kill)
    south = [v for t, c, v in kpad["events"] if t == EV_KEY and c == BTN_SOUTH]
    check(kill["uniq"] == (host or {}).get("uniq"), f"the same controller (name, address) coming back gets the same MAC: {kill['uniq']}")
    check((kpad["south_at_open"] == 1 or 1 in south) and south and south[-1] == 0,
          f"killed controller: Cross was held, then released by the rest state: at open {kpad['south_at_open']}, then {south}")
    gone = facts.get("kill_gone_seconds")
    check(all("gone_after" in n for n in nodes.values()) and gone is not None and float(gone) <= host_timeout + 2.5 * pace,
          f"killed controller: its pad gone {gone} s after SIGKILL (host timeout {host_timeout:g} s, plus 2.5 s for the emulated guest"
          f"{f' × its pace {pace:g}' if pace > 1 else ''})")
pads = [u for u in (facts.get("two_pads") or "").split(",") if u]
check(len(pads) == 2 and len(set(pads)) == 2 and facts.get("twin_rcs") == "00",
      f"two live controllers from one address: two pads with two MACs ({pads}), both controllers ran clean")
# 5. A game's rumble and light (SDL) reach the controller that owns the pad.
fed = open(os.path.join(results, "feedback-client.out")).read() if os.path.exists(os.path.join(results, "feedback-client.out")) else ""
said = [l.split("feedback ", 1)[1] for l in fed.splitlines() if "remotion client: feedback " in l]
check(facts.get("sdl_feedback_rc") == "0", f"SDL opened the controller's pad, set its light and rumbled it (rc {facts.get('sdl_feedback_rc')})")
# The host paces feedback on the controller's samples (a change within 50 ms of the last
# goes with a later sample), so a light and a rumble set 1 ms apart may reach it as one
# message or two, in either order; what must hold: the rumble was heard, then its end, and
# the light is the game's.
rumbled = [i for i, x in enumerate(said) if x.startswith("rumble 255/128 ")]
check(rumbled and said[-1] == "rumble 0/0 lightbar #ff0040" and rumbled[0] < len(said) - 1,
      f"the controller heard the game: rumble 255/128 (SDL's 0xFFFF/0x8000), then the rumble's end with light #ff0040: {said}")
fed_ok = check(facts.get("feedback_client_rc") == "0" and facts.get("host2_rc") == "0",
               f"that controller and its host ran clean (rc {facts.get('feedback_client_rc')}, {facts.get('host2_rc')})")
if not (fed_ok and said and said[-1] == "rumble 0/0 lightbar #ff0040"):
    # CI keeps only what is printed: the last words of the three programs of this part.
    for name in ("feedback-client.out", "sdl-feedback.out", "host2.err", "udp-counters", "udp-sockets"):
        path = os.path.join(results, name)
        tail = open(path, errors="replace").read().splitlines()[-6:] if os.path.exists(path) else ["(none)"]
        print(f"     {name}: " + " | ".join(tail))
# 6. A DSU source's controller gets a pad: the client's sweep, served over DSU and read back,
# turns it at the same rate, its stick arrives, and it rests and goes when the client leaves.
dsu = load("dsu-events.json")
if dsu:
    nodes, dpad, dmotion = parts(dsu)
    res = dmotion["abs"][str(ABS_RY)]["resolution"]
    ry = [v for t, c, v in dmotion["events"] if t == EV_ABS and c == ABS_RY]
    expected = math.degrees(4 * 0.3 / 2.0)
    ok, said = sweep_plateaus(ry, res, expected)
    check(ok, f"DSU source: the served controller's yaw rate (±{expected:.2f} °/s) reads on its pad's ABS_RY: {said} (within 2%)")
    lx = axis_values(dpad, ABS_X)
    check(255 in lx and lx[-1] == 128 and ry and ry[-1] == 0 and all("gone_after" in n for n in nodes.values()),
          f"DSU source: its left stick arrives (255) and the pad rests (x 128, ABS_RY 0) and goes when the controller leaves: "
          f"x {sorted(set(lx))} last {lx[-1] if lx else None}")
check(facts.get("dsu_client_rc") == "0" and facts.get("host3_rc") == "0" and facts.get("host4_rc") == "0",
      f"the DSU-served controller and both hosts ran clean (rc {facts.get('dsu_client_rc')}, {facts.get('host3_rc')}, {facts.get('host4_rc')})")
# 7. Two players of two origins: SDL opens two PS5 controllers; each reads its own
# controller's stick, button and gyro and nothing of the other's; player 1 leaves and only
# their pad goes, the other's still reading player 2.
players = load("sdl-players.json")
if players:
    rows = players.get("pads", {})
    def summary(r):
        mags = [math.sqrt(sum(v * v for v in g)) for g in r["gyro"]]
        return {"leftx": (min(r["leftx"]), max(r["leftx"])), "a": max(r["a"]), "b": max(r["b"]),
                "gyro_max": round(max(mags, default=-1), 3), "samples": len(r["leftx"])}
    by = {serial: summary(r) for serial, r in rows.items() if r["leftx"]}
    # Told apart by their sticks (a pad reads 0 until its first analog state): never the other's.
    one = next((s for s, v in by.items() if v["leftx"][1] > 16000 and v["leftx"][0] > -16000), None)
    two = next((s for s, v in by.items() if v["leftx"][0] < -16000 and v["leftx"][1] < 16000), None)
    print(f"     SDL's pads: {by}; live (a report read) after {players.get('live_after')} s, "
          f"stream shown in the window (µs) {players.get('stream_us')}, at {players.get('paths')}")
    check(len(players.get("found", [])) == 2 and one and two and one != two,
          f"SDL sees two PS5 controllers, player 1's stick right and player 2's left: {players.get('found')}")
    if one and two:
        p1, p2 = by[one], by[two]
        check(p1["a"] == 1 and p1["b"] == 0 and p2["b"] == 1 and p2["a"] == 0,
              f"each pad holds its own player's button only: player 1 A {p1['a']} B {p1['b']}, player 2 A {p2['a']} B {p2['b']}")
        check(p1["gyro_max"] > 0.3 and 0 <= p2["gyro_max"] < 0.05,
              f"each pad turns with its own player only: player 1 (sweeping) {p1['gyro_max']} rad/s, player 2 (still) {p2['gyro_max']} rad/s")
        after = {serial: summary(r) for serial, r in players.get("after", {}).items() if r["leftx"]}
        check(players.get("gone") == [one] and players.get("attached_after") == [two]
              and two in after and after[two]["leftx"][1] < -16000 and after[two]["b"] == 1,
              f"player 1 leaves: only their pad goes ({players.get('gone')}); player 2's still reads them: {after.get(two)}")
    check(facts.get("player1_rc") == "0" and facts.get("sdl_players_rc") == "0" and facts.get("host5_rc") == "0"
          and facts.get("host6_rc") == "0",
          f"both players' programs and both hosts ran clean (rc {facts.get('player1_rc')}, {facts.get('sdl_players_rc')}, "
          f"{facts.get('host5_rc')}, {facts.get('host6_rc')})")
else:   # load() failed it; what the witness said is the reason
    path = os.path.join(results, "sdl-players.out")
    print("     sdl-players.out: " + (open(path, errors="replace").read()[-300:] if os.path.exists(path) else "(none)"))
# 8. A DSU source's fingers on the pad's Touchpad node: hid-playstation's multitouch slots.
touch = load("touch-events.json")
sent = load("touch-source.json") or {}
if touch:
    tnode = next((n for k, n in touch["nodes"].items() if k.endswith("Touchpad")), None)
    check(tnode is not None, f"the DSU source's pad has a Touchpad node: {sorted(touch['nodes'])}")
    if tnode:
        ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, BTN_TOUCH = 0x2F, 0x35, 0x36, 0x39, 0x14A
        slot, ids, xs, ys, both, touches = 0, {0: -1, 1: -1}, {0: [], 1: []}, {0: [], 1: []}, False, []
        for t, c, v in tnode["events"]:
            if t == EV_ABS and c == ABS_MT_SLOT: slot = v
            elif t == EV_ABS and c == ABS_MT_TRACKING_ID: ids[slot] = v
            elif t == EV_ABS and c == ABS_MT_POSITION_X: xs.setdefault(slot, []).append(v)
            elif t == EV_ABS and c == ABS_MT_POSITION_Y: ys.setdefault(slot, []).append(v)
            elif t == EV_KEY and c == BTN_TOUCH: touches.append(v)
            both = both or (ids.get(0, -1) >= 0 and ids.get(1, -1) >= 0)
        # What the pad should show: the DS4's pixels (1920 × 942) as the DualSense's (1920 × 1080).
        def py(y): return round(y / 941 * 1079)
        x0, y0 = (min(xs[0], default=-1), max(xs[0], default=-1)), (min(ys[0], default=-1), max(ys[0], default=-1))
        # Where the slide is first seen depends on when the witness's first frame lands (480–502
        # idle; 614 beside two busy loops, its first frames lost to a starved reader): it must be
        # on the slide's line and in its first half; the end is where the finger stays, exactly.
        first = (xs[0][0], ys[0][0]) if xs[0] and ys[0] else (-1, -1)
        on_line = abs(first[1] - py(235 + 471 * (first[0] - 480) / 960)) <= 3
        check(480 <= first[0] <= 960 and on_line and x0[1] == 1440 and abs(y0[1] - py(706)) <= 1,
              f"touchpad: one finger slides from x 480 to 1440 and y {py(235)} to {py(706)} on slot 0: first seen at {first}, "
              f"x {x0}, y {y0} "
              f"(phases sent: {[ph['name'] for ph in sent.get('phases', [])]})")
        check(both and xs[1] and abs(xs[1][-1] - 1700) <= 1 and abs(ys[1][-1] - py(100)) <= 1,
              f"touchpad: a second finger on slot 1 at (1700, {py(100)}) while the first stays: "
              f"{(xs[1][-1] if xs[1] else None, ys[1][-1] if ys[1] else None)}, both down at once {both}")
        check(ids == {0: -1, 1: -1} and touches[:1] == [1] and touches[-1:] == [0],
              f"touchpad: the fingers lift (tracking ids {ids}) and BTN_TOUCH goes 1 then 0: {touches}")
# The same fingers through SDL's touchpad API, as a game reads them: SDL scales the DualSense's
# touch points by 1/1920 and 1/1070, so the DS4's (1440, 706) reads (0.750, 0.757) and (1700,
# 100) reads (0.885, 0.107).
sdl_touch = load("touch-sdl.json") or {}
changes = sdl_touch.get("changes", [])
first_down = [c[0] for c in changes if c and c[0][0]]
both_down = [c for c in changes if len(c) == 2 and c[0][0] and c[1][0]]
near = lambda got, want: abs(got[1] - want[0]) <= 0.01 and abs(got[2] - want[1]) <= 0.01
xs_sdl = [f[1] for f in first_down]
check(sdl_touch.get("opened") and sdl_touch.get("touchpads") == 1 and sdl_touch.get("fingers", 0) >= 2
      and first_down and xs_sdl[0] <= 0.5 and xs_sdl == sorted(xs_sdl) and near(first_down[-1], (0.750, 0.757)),
      f"SDL's touchpad API: one touchpad, the first finger slides right from x {xs_sdl[0] if xs_sdl else None} to "
      f"{first_down[-1][1:] if first_down else None} (0.750, 0.757) ({len(changes)} changes)")
check(both_down and near(both_down[-1][1], (0.885, 0.107)) and changes and not any(f[0] for f in changes[-1]),
      f"SDL's touchpad API: the second finger at {both_down[-1][1][1:] if both_down else None} (0.885, 0.107) "
      f"while the first stays, then every finger up: {changes[-1] if changes else None}")
check(facts.get("touch_reader_rc") == "0" and facts.get("touch_source_rc") == "0" and facts.get("host7_rc") == "0"
      and facts.get("touch_sdl_rc") == "0",
      f"the touch source, its host, the reader and SDL ran clean (rc {facts.get('touch_source_rc')}, {facts.get('host7_rc')}, "
      f"{facts.get('touch_reader_rc')}, {facts.get('touch_sdl_rc')})")
check(facts.get("host_rc") == "0", f"the host stopped cleanly (rc {facts.get('host_rc')})")
stderr = open(os.path.join(results, "host.err")).read()
check("gamepad: 4 virtual DualSense pads made, 0 refused, 0 reports not written" in stderr,
      "the host's stop line: 4 pads made, 0 refused, 0 reports not written")
end = os.path.join(results, "devices-end")   # absent when the guest was cut off: a failure, not a crash
check(os.path.exists(end) and "Remotion virtual DualSense" not in open(end).read(), "no virtual pad left after the host stopped")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
