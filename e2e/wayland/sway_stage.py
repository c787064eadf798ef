#!/usr/bin/env python3
"""The wlroots injector against a real compositor: headless sway 1.7 (pixman, no GPU), run
by scripts/wayland-sway-test.sh as a throwaway unprivileged user (sway refuses root) inside a
network namespace that has only lo. Everything here runs as that user. Stdlib only.

Two outputs of different sizes and scales side by side (HEADLESS-1 1280x720 scale 1 at 0,0;
HEADLESS-2 1024x768 scale 2, so 512x384 logical, at 1280,0), a witness client fullscreen on
each (e2e/wayland/wl_witness.c: what the compositor delivered to it, never the host's log).
`remotion host --inject auto --output NAME`, fed by a phone page's WebSocket (pairing, motion,
buttons, text as the page sends them). Checks:
  1. auto picks the wlroots protocols (no uinput) and says so in one line; doctor names the
     compositor's protocols, its outputs and the choice;
  2. on each output the aimed spot (the host's own move_to, REMOTION_ECHO_INJECTED) is where
     the witness on that output sees the pointer, and aiming straight ahead lands mid-output;
  3. a click arrives once (press, release) on the output's witness;
  4. a line with non-ASCII text arrives as text through the keymap the host uploaded;
  5. sway stops mid-stream: the host keeps running, says so in one line, and when a new sway
     is up on the same socket its pointer moves again (retried);
  6. a WAYLAND_DISPLAY socket that is no compositor: one line, exit 1, no crash;
  7. the output chosen in config.toml ([inject] output) as with --output; outputs disabled and
     enabled while the host runs: one line each, and the pointer stays on the outputs there are
     (sway 1.7 cannot disable a headless output: then a note says so); an output created: one
     line, the aim spanning the wider layout;
  8. the presenter's laser on each output: while the page holds it, a `grim` shot of that
     output finds the dot's red at the aimed spot and sway's pointer stays put; once the
     samples stop it fades (the spot is the witness's colour again);
  9. the output chosen in the dashboard (PUT /api/output): refused without the dashboard's
     token (the pointer stays), with it the next aim lands mid-way on the other output's
     witness, the laser's dot is drawn there, and config.toml says `[inject] output` = it,
     every other line kept; a host started with --output answers 409.
Prints 'N passed, N failed'."""
import argparse, glob, json, os, signal, socket, subprocess, sys, threading, time, urllib.error, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "web"))
import raw_page_client  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--bin", required=True)
p.add_argument("--witness", required=True)
p.add_argument("--work", required=True)
a = p.parse_args()
work = a.work
runtime = os.path.join(work, "run")
os.makedirs(runtime, mode=0o700, exist_ok=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))   # the stage's timeout: stop what we started
checks = raw_page_client.Checks()
check = checks.check
procs = []
SOCKET = "wayland-1"   # the first name libwayland gives in an empty runtime directory
OUTPUTS = {"HEADLESS-1": (0, 0, 1280, 720), "HEADLESS-2": (1280, 0, 512, 384)}


def wait_for(pred, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    return pred()


def base_env(**more):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", work), "XDG_RUNTIME_DIR": runtime,
           "LANG": "C.UTF-8"}
    env.update(more)
    return env


def start(args, out, **env):
    proc = subprocess.Popen(args, stdout=open(out, "w"), stderr=subprocess.STDOUT, env=base_env(**env))
    procs.append(proc)
    return proc


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def finish():
    """Stops what was started and prints the tally (once: a check that ends the run early
    comes through here, then through the `finally`)."""
    if getattr(finish, "done", False):
        return
    finish.done = True
    for proc in reversed(procs):
        stop(proc)
    checks.finish()


def sway_up(n):
    """Starts sway (its config's exec touches a ready file once it runs) with two outputs."""
    ready = os.path.join(work, f"sway{n}.ready")
    conf = os.path.join(work, f"sway{n}.conf")
    with open(conf, "w") as f:
        f.write(f"""output HEADLESS-1 resolution 1280x720 position 0 0 scale 1
output HEADLESS-2 resolution 1024x768 position 1280 0 scale 2
workspace 1 output HEADLESS-1
workspace 2 output HEADLESS-2
assign [app_id="witness-1"] workspace 1
assign [app_id="witness-2"] workspace 2
for_window [app_id="witness-.*"] fullscreen enable
focus_follows_mouse yes
exec /bin/touch {ready}
""")
    sway = start(["sway", "-c", conf], os.path.join(work, f"sway{n}.log"),
                 WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman")
    if not wait_for(lambda: os.path.exists(ready) or sway.poll() is not None, 20) or sway.poll() is not None:
        check(f"sway {n} starts headless as an unprivileged user", False, open(os.path.join(work, f"sway{n}.log")).read()[-800:])
        finish()
    sockets = [os.path.basename(s) for s in glob.glob(os.path.join(runtime, "wayland-*")) if not s.endswith(".lock")]
    check(f"sway {n} listens on {SOCKET} in its own runtime directory", sockets == [SOCKET], sockets)
    ipc = glob.glob(os.path.join(runtime, f"sway-ipc.*.{sway.pid}.sock"))
    swaymsg = lambda *args: subprocess.run(["swaymsg", "-s", ipc[0], *args], capture_output=True, text=True, timeout=10,
                                           env=base_env())
    swaymsg("create_output")
    swaymsg("output HEADLESS-2 resolution 1024x768 position 1280 0 scale 2")
    outputs = json.loads(swaymsg("-t", "get_outputs", "-r").stdout)
    got = {o["name"]: (o["rect"]["x"], o["rect"]["y"], o["rect"]["width"], o["rect"]["height"]) for o in outputs}
    check(f"sway {n} has two outputs of different sizes and scales side by side", got == OUTPUTS, got)
    witnesses = {}
    for i, name in enumerate(OUTPUTS, 1):
        swaymsg(f"workspace {i}")
        out = os.path.join(work, f"witness{n}-{i}.out")
        start([a.witness, f"witness-{i}"], out, WAYLAND_DISPLAY=SOCKET)
        witnesses[name] = out
        size = OUTPUTS[name][2:]
        line = wait_for(lambda: next((l for l in lines(out) if l.startswith("ready")), None), 10)
        check(f"sway {n}: the witness on {name} is shown fullscreen", line == f"ready {size[0]} {size[1]}", line)
    return sway, swaymsg, witnesses


def lines(path):
    try:
        return open(path, encoding="utf-8", errors="replace").read().splitlines()
    except FileNotFoundError:
        return []


class Host:
    def __init__(self, n, output, wayland=SOCKET, config=None, dashboard=False):
        self.out, self.err = os.path.join(work, f"host{n}.out"), os.path.join(work, f"host{n}.err")
        self.data = os.path.join(work, "data")
        ready = os.path.join(work, f"host{n}.ready")
        args = [a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "auto", "--no-discovery",
                *(["--dashboard-port", "0"] if dashboard else ["--no-dashboard"]),
                "--web-port", "0", "--no-web-rtc", "--data-dir", self.data, "--pair-at-start",
                "--ready-file", ready, "--timeout", "30"]
        if output:
            args += ["--output", output]
        if config:
            args += ["--config", config]
        self.proc = subprocess.Popen(args, stdout=open(self.out, "w"), stderr=open(self.err, "w"),
                                     env=base_env(WAYLAND_DISPLAY=wayland, XDG_SESSION_TYPE="wayland",
                                                  REMOTION_NO_UINPUT="1", REMOTION_ECHO_INJECTED="1"))
        procs.append(self.proc)
        self.ready = wait_for(lambda: (os.path.exists(ready) and os.path.getsize(ready) > 0) or self.proc.poll() is not None, 30) \
            and self.proc.poll() is None and json.load(open(ready))

    def moves(self):
        return [json.loads(l) for l in lines(self.out) if '"move_to"' in l]


def page(host):
    addr, port, device = raw_page_client.pair(host.ready["pairingURL"], "sway-stage", host.data)
    ws = raw_page_client.PageSocket(addr, port)
    check("the page is welcomed", ws.hello(device))

    def keep_alive():   # the page's pings, as a phone sends them while it waits
        try:
            while not getattr(ws, "closed", False):
                ws.send(raw_page_client.ping(), 0x2)
                time.sleep(0.25)
        except OSError:
            pass
    threading.Thread(target=keep_alive, daemon=True).start()
    return ws


def close(ws):
    ws.closed = True
    ws.close()


def aim(ws, yaw, seq):
    for i in range(30):
        ws.send(raw_page_client.motion(seq + i, yaw), 0x2)
        time.sleep(0.01)
    return seq + 30


def pointer_at(out):
    pos = [l.split()[1:3] for l in lines(out) if l.startswith(("motion", "enter"))]
    return tuple(float(v) for v in pos[-1]) if pos else None


def put_output(host, name, token=True):
    """PUT /api/output on the host's dashboard, as its page sends it: (status, JSON answer)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Remotion-Token"] = host.ready["dashboardURL"].split("#token=", 1)[1]
    req = urllib.request.Request(f"http://127.0.0.1:{host.ready['dashboardPort']}/api/output", method="PUT",
                                 data=json.dumps({"output": name}).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def pointer_since(out, n):
    """The witness's newest pointer position among its lines after the first `n`, or None."""
    pos = [l.split()[1:3] for l in lines(out)[n:] if l.startswith(("motion", "enter"))]
    return tuple(float(v) for v in pos[-1]) if pos else None


def dashboard_choice(witnesses):
    """9. The output chosen in the dashboard while the host runs."""
    conf = os.path.join(work, "config-dashboard.toml")
    original = '# the desk\n[inject]\noutput = "HEADLESS-1"   # the big one\n\n[mapping]\nsensitivity = 1.0\n'
    with open(conf, "w") as f:
        f.write(original)
    host = Host(5, None, config=conf, dashboard=True)
    if not host.ready or not host.ready.get("dashboardPort"):
        check("host 5 starts on sway with its dashboard", False, open(host.err).read()[-800:])
        finish()
    snap = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{host.ready['dashboardPort']}/api/snapshot", timeout=10).read())
    outs = snap.get("outputs") or {}
    sizes = {o["name"]: (o["width"], o["height"]) for o in outs.get("outputs", [])}
    check("the dashboard's snapshot lists the outputs (name, size) and the one in use",
          outs.get("inUse") == "HEADLESS-1" and sizes.get("HEADLESS-1") == (1280, 720) and sizes.get("HEADLESS-2") == (512, 384)
          and outs.get("commandLine") is False, outs)
    ws = page(host)
    S = {"seq": 0}

    def mid_on(name):   # aims straight ahead until that output's witness sees the pointer mid-way (new lines only)
        w, h = OUTPUTS[name][2:]
        seen = len(lines(witnesses[name]))

        def step():
            S["seq"] = aim(ws, 0.0, S["seq"])
            p = pointer_since(witnesses[name], seen)
            return p if p and abs(p[0] - w / 2) <= w * 0.02 and abs(p[1] - h / 2) <= h * 0.02 else None
        return wait_for(step, 5)
    check("host 5 aims at HEADLESS-1 as config.toml says (its witness, mid-way)", mid_on("HEADLESS-1") is not None)
    S["seq"] = laser(host, ws, S["seq"], "HEADLESS-1", witnesses["HEADLESS-1"])   # its overlay opens on HEADLESS-1
    status, answer = put_output(host, "HEADLESS-2", token=False)
    check("PUT /api/output without the dashboard's token is refused (403)", status == 403, (status, answer))
    seen = {name: len(lines(out)) for name, out in witnesses.items()}
    S["seq"] = aim(ws, 0.15, S["seq"])
    moved = wait_for(lambda: pointer_since(witnesses["HEADLESS-1"], seen["HEADLESS-1"]), 5)
    check("... the next aim still lands on HEADLESS-1, none on HEADLESS-2, and config.toml is as it was",
          moved is not None and 0 <= moved[0] < 1280 and pointer_since(witnesses["HEADLESS-2"], seen["HEADLESS-2"]) is None
          and open(conf).read() == original, (moved, open(conf).read()))
    status, answer = put_output(host, "HEADLESS-2")
    check("PUT /api/output with the token switches to HEADLESS-2 (200, in use)",
          status == 200 and answer.get("inUse") == "HEADLESS-2", (status, answer))
    said = [l for l in lines(host.err) if 'covers output "HEADLESS-2" now' in l]
    check("... the host says so in one line", len(said) == 1, lines(host.err)[-3:])
    at = mid_on("HEADLESS-2")
    check("... and the next aim lands mid-way on HEADLESS-2 (its witness sees it)", at is not None,
          pointer_since(witnesses["HEADLESS-2"], 0))
    S["seq"] = laser(host, ws, S["seq"], "HEADLESS-2", witnesses["HEADLESS-2"])   # ... and the dot follows the choice
    check("... and config.toml says [inject] output = \"HEADLESS-2\", every other line kept",
          open(conf).read() == original.replace('"HEADLESS-1"   #', '"HEADLESS-2"   #'), open(conf).read())
    status, answer = put_output(host, "DP-9")
    check("an output sway does not have: 400 with one line listing the outputs",
          status == 400 and 'no output named "DP-9"' in answer.get("error", "") and "HEADLESS-1 1280x720" in answer["error"]
          and "\n" not in answer["error"], (status, answer))
    close(ws); stop(host.proc)
    fixed = Host(6, "HEADLESS-1", dashboard=True)
    if not fixed.ready:
        check("host 6 starts on sway with its dashboard", False, open(fixed.err).read()[-800:])
        finish()
    status, answer = put_output(fixed, "HEADLESS-2")
    check("a host started with --output: the command line decides (409)",
          status == 409 and "--output HEADLESS-1" in answer.get("error", ""), (status, answer))
    stop(fixed.proc)


def one_output(n, name, witnesses, typed, config=None):
    host = Host(n, None if config else name, config=config)
    if not host.ready:
        check(f"host {n} starts on sway", False, open(host.err).read()[-800:])
        finish()
    said = [l for l in lines(host.err) if "injecting with" in l]
    check(f"host {n}: auto picks the wlroots protocols and says so in one line",
          len(said) == 1 and "wlroots" in said[0] and "WAYLAND_DISPLAY=" in said[0], said)
    ws = page(host)
    seq = aim(ws, 0.0, 0)
    x, y, w, h = OUTPUTS[name]
    witness = witnesses[name]
    at = wait_for(lambda: pointer_at(witness), 5)
    check(f"{name}: aiming straight ahead puts sway's pointer mid-output on that output's witness",
          at is not None and abs(at[0] - w / 2) <= w * 0.02 and abs(at[1] - h / 2) <= h * 0.02, (at, w, h))
    seq = aim(ws, 0.15, seq)
    seq = aim(ws, 0.15, seq)
    time.sleep(0.3)
    moves = host.moves()
    meant = (moves[-1]["x"], moves[-1]["y"]) if moves else None
    at = pointer_at(witness)
    check(f"{name}: the aimed spot (the host's move_to {meant}) is where the witness sees the pointer ({at})",
          meant is not None and at is not None and abs(at[0] - meant[0]) <= 1 and abs(at[1] - meant[1]) <= 1
          and 0 <= meant[0] < w and 0 <= meant[1] < h and abs(meant[0] - w / 2) > 5)
    ws.send(raw_page_client.button(0, True, 1), 0x2)
    time.sleep(0.1)
    ws.send(raw_page_client.button(0, False, 0), 0x2)
    clicks = wait_for(lambda: [l for l in lines(witness) if l.startswith("button")] if
                      len([l for l in lines(witness) if l.startswith("button")]) >= 2 else None, 5)
    check(f"{name}: a click arrives once, pressed and released (BTN_LEFT)", clicks == ["button 272 1", "button 272 0"], clicks)
    ws.send(json.dumps({"type": "text", "text": typed}).encode(), 0x1)
    want = typed
    keys = lambda: [l.split(" ", 3) for l in lines(witness) if l.startswith("key ")]
    text = lambda: "".join("\n" if k[1] == "Return" else (k[3] if len(k) > 3 else "") for k in keys())
    got = wait_for(lambda: text() if text() == want else None, 5) or text()
    check(f"{name}: the typed line {typed!r} arrives as text on the witness", got == want, repr(got))
    return host, ws, seq


def shot(name):
    """A grim shot of output `name` in logical pixels: (width, height, rgb bytes), or None."""
    path = os.path.join(work, f"{name}.ppm")
    r = subprocess.run(["grim", "-o", name, "-s", "1", "-t", "ppm", path], capture_output=True, timeout=20,
                       env=base_env(WAYLAND_DISPLAY=SOCKET))
    if r.returncode != 0:
        return None
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:          # P6, width, height, maxval, each after whitespace
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    return int(fields[1]), int(fields[2]), data[i + 1:]


def laser_red(c):
    return c is not None and c[0] >= 200 and c[1] <= 80 and c[2] <= 80


def red_around(name, x, y):
    """How many pixels of the laser's red a grim shot of `name` has in the dot's square
    around (x, y) (28 px: at most 615 in the disc, less what sway's cursor covers), or None."""
    got = shot(name)
    if got is None:
        return None
    w, h, rgb = got
    count = 0
    for py in range(max(int(y) - 14, 0), min(int(y) + 14, h)):
        for px in range(max(int(x) - 14, 0), min(int(x) + 14, w)):
            o = (py * w + px) * 3
            count += laser_red(tuple(rgb[o:o + 3]))
    return count


def laser(host, ws, seq, name, witness):
    """7. The laser dot drawn by the layer shell where the phone aims, and gone once it fades."""
    seq = aim(ws, 0.1, seq)
    time.sleep(0.3)
    moves = host.moves()
    spot = (moves[-1]["x"], moves[-1]["y"]) if moves else None
    before = red_around(name, *spot) if spot else None
    check(f"{name}: before the laser the aimed spot {spot} shows none of the laser's red", before == 0, before)
    pointer = pointer_at(witness)
    ws.send(json.dumps({"type": "laser", "on": True}).encode(), 0x1)
    holding = {"on": True, "seq": seq}

    def hold():   # the phone keeps aiming at the same spot while the laser is held
        while holding["on"]:
            ws.send(raw_page_client.motion(holding["seq"], 0.1), 0x2)
            holding["seq"] += 1
            time.sleep(0.02)
    t = threading.Thread(target=hold, daemon=True)
    t.start()
    seen = wait_for(lambda: (lambda n: n if n and n >= 300 else None)(red_around(name, *spot)), 15)
    check(f"{name}: the laser held, grim finds the dot's red disc at the aimed spot ({seen} px)", seen is not None,
          red_around(name, *spot))
    check(f"{name}: ... and sway's pointer stayed where it was", pointer_at(witness) == pointer, (pointer, pointer_at(witness)))
    # Click-through: the overlay covers the output on the overlay layer with an empty input
    # region, so a click while the dot shows reaches the window under it (the witness).
    clicked = len([l for l in lines(witness) if l.startswith("button")])
    ws.send(raw_page_client.button(0, True, 1), 0x2)
    time.sleep(0.1)
    ws.send(raw_page_client.button(0, False, 0), 0x2)
    through = wait_for(lambda: (lambda b: b if len(b) >= 2 else None)([l for l in lines(witness) if l.startswith("button")][clicked:]), 5)
    check(f"{name}: ... and a click while the dot shows passes through the overlay to the window under it",
          through == ["button 272 1", "button 272 0"], through)
    holding["on"] = False
    t.join()
    gone = wait_for(lambda: red_around(name, *spot) == 0, 10)
    check(f"{name}: once the samples stop the dot fades: no red left at the spot", gone, red_around(name, *spot))
    ws.send(json.dumps({"type": "laser", "on": False}).encode(), 0x1)
    return holding["seq"]


try:
    sway, swaymsg, witnesses = sway_up(1)
    # doctor: the compositor's protocols, outputs and the choice.
    doctor = subprocess.run([a.bin, "doctor", "--json", "--no-discovery", "--data-dir", os.path.join(work, "data")], capture_output=True,
                            text=True, timeout=60, env=base_env(WAYLAND_DISPLAY=SOCKET, REMOTION_NO_UINPUT="1"))
    try:
        found = {line["id"]: line for line in json.loads(doctor.stdout)["checks"]}
    except (ValueError, KeyError):
        found = {}
    comp, inj = found.get("wayland.compositor", {}), found.get("injector", {})
    check("doctor names the compositor's virtual pointer and keyboard and both outputs",
          "zwlr_virtual_pointer_manager_v1" in json.dumps(comp) and "HEADLESS-2 512x384 at 1280,0 scale 2" in json.dumps(comp),
          comp.get("message") or doctor.stdout[-600:])
    check("doctor says auto picks wlroots", "picks wlroots" in inj.get("message", ""), inj.get("message"))
    lsh = found.get("wayland.laser", {})
    check("doctor says the laser draws on the layer shell", lsh.get("status") == "pass" and "zwlr_layer_shell_v1" in lsh.get("message", ""),
          lsh or doctor.stdout[-400:])

    def devices():
        seats = json.loads(swaymsg("-t", "get_seats", "-r").stdout or "[]")
        return sorted(d["type"] for seat in seats for d in seat.get("devices", []) if d["type"] in ("pointer", "keyboard"))

    typed = "Grüße, ŋ ☃ 日本 ok\n"
    host, ws, seq = one_output(1, "HEADLESS-1", witnesses, typed)
    seq = laser(host, ws, seq, "HEADLESS-1", witnesses["HEADLESS-1"])
    said = [l for l in lines(host.err) if "presenter laser" in l]
    check("the host says in one line that the laser draws on the layer shell",
          len(said) == 1 and "layer shell" in said[0], said)
    check("sway's seat has the host's virtual pointer and keyboard while it runs", devices() == ["keyboard", "pointer"], devices())
    close(ws); stop(host.proc)
    check("... and neither once the host stopped", wait_for(lambda: devices() == [], 5), devices())
    # The output chosen in the config file rather than on the command line.
    conf = os.path.join(work, "config.toml")
    with open(conf, "w") as f:
        f.write('[inject]\noutput = "HEADLESS-2"\n')
    host, ws, seq = one_output(2, "HEADLESS-2", witnesses, "Ça va? ħ€\n", config=conf)
    seq = laser(host, ws, seq, "HEADLESS-2", witnesses["HEADLESS-2"])

    # The chosen output disabled while the host runs, then enabled again.
    def said(text):
        return [l for l in lines(host.err) if text in l]
    swaymsg("output HEADLESS-2 disable")
    active = lambda: {o["name"] for o in json.loads(swaymsg("-t", "get_outputs", "-r").stdout or "[]") if o.get("active")}
    # sway 1.7's headless backend may refuse to disable an output ("Failed to commit output" in
    # its log): then there is no disabled output to follow here, and the stage says so.
    disabled = wait_for(lambda: "HEADLESS-2" not in active(), 3)
    print(f"note sway {'disabled' if disabled else 'could not disable (Failed to commit output)'} HEADLESS-2", flush=True)
    S = {"seq": seq}

    def aim_on(yaw):   # one aim, the sequence numbers going on (the page's newest-wins drops old ones)
        S["seq"] = aim(ws, yaw, S["seq"])
        return True
    if disabled:
        gone = wait_for(lambda: aim_on(0.0) and said('output "HEADLESS-2" is gone'), 10)
        check("HEADLESS-2 disabled while the host runs: one line saying the pointer covers the layout there is",
              gone is not None and len(gone) == 1 and "1280x720" in gone[0] and host.proc.poll() is None,
              (gone, lines(host.err)[-3:]))
        at = wait_for(lambda: aim_on(0.0) and (lambda p: p if p and abs(p[0] - 640) <= 26 and abs(p[1] - 360) <= 15 else None)(
            pointer_at(witnesses["HEADLESS-1"])), 10)
        check("... and aiming straight ahead puts sway's pointer mid-HEADLESS-1, in range (its witness)", at is not None,
              pointer_at(witnesses["HEADLESS-1"]))
    swaymsg("output HEADLESS-2 enable")
    if disabled:
        back = wait_for(lambda: aim_on(0.0) and said('output "HEADLESS-2" is back'), 10)
        check("HEADLESS-2 enabled again: one line saying the pointer covers it again",
              back is not None and len(back) == 1 and "512x384" in back[0], (back, lines(host.err)[-3:]))
    outs = {o["name"]: o["rect"] for o in json.loads(swaymsg("-t", "get_outputs", "-r").stdout or "[]") if o.get("active")}
    check("... and sway has HEADLESS-2 where it was", outs.get("HEADLESS-2", {}).get("x") == 1280, outs)
    seq = S["seq"]

    # 5. The compositor goes away mid-stream, and comes back.
    stop(sway)
    seq = aim(ws, 0.0, seq)
    gone = wait_for(lambda: [l for l in lines(host.err) if "went away" in l], 5)
    check("sway stopped mid-stream: the host keeps running and says so in one line",
          host.proc.poll() is None and len(gone or []) == 1, (host.proc.poll(), gone, lines(host.err)[-5:]))
    sway, swaymsg, witnesses = sway_up(2)
    moved = wait_for(lambda: (aim(ws, 0.05, seq) and pointer_at(witnesses["HEADLESS-2"])), 10)
    check("... and once a new sway is up on the socket the host's pointer moves on it again (retried)",
          moved is not None and host.proc.poll() is None, moved)
    close(ws); stop(host.proc)
    # An output created while the host runs, on a host bound to no output: one line, a wider layout.
    host = Host(4, None)
    if not host.ready:
        check("host 4 starts on sway", False, open(host.err).read()[-800:])
        finish()
    ws = page(host)
    seq = aim(ws, 0.0, 0)
    swaymsg("create_output")
    S = {"seq": seq}
    grown = wait_for(lambda: aim_on(0.0) and [l for l in lines(host.err) if "the outputs changed" in l], 10)
    seq = aim(ws, 0.0, S["seq"])
    time.sleep(0.3)
    check("an output created while the host runs: one line with the wider layout", grown is not None and len(grown) == 1
          and "HEADLESS-3" in grown[0], (grown, lines(host.err)[-3:]))
    outs = [o["rect"] for o in json.loads(swaymsg("-t", "get_outputs", "-r").stdout or "[]") if o.get("active")]
    width = max((r["x"] + r["width"] for r in outs), default=0)
    moves = host.moves()
    mid = moves[-1]["x"] if moves else None
    check(f"... and aiming straight ahead now aims mid-way across the {width} px layout", mid is not None and width > 1792
          and abs(mid - width / 2) <= width * 0.02, (mid, width))
    close(ws); stop(host.proc)
    dashboard_choice(witnesses)

    # An output the compositor does not have, in config.toml: one line naming the ones it has.
    with open(conf, "w") as f:
        f.write('[inject]\noutput = "DP-9"\n')
    bad = subprocess.run([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "auto", "--config", conf,
                          "--no-discovery", "--no-dashboard", "--no-web", "--data-dir", os.path.join(work, "data")],
                         capture_output=True, text=True, timeout=30, env=base_env(WAYLAND_DISPLAY=SOCKET, REMOTION_NO_UINPUT="1"))
    err = [l for l in bad.stderr.splitlines() if l.strip()]
    check("[inject] output naming no output: exit 1, one line listing the outputs there are",
          bad.returncode == 1 and len(err) == 1 and 'no output named "DP-9"' in err[0]
          and "HEADLESS-1 1280x720 at 0,0 scale 1" in err[0], (bad.returncode, err))
    # An output the compositor does not have: one line naming the ones it has.
    bad = subprocess.run([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "auto", "--output", "DP-9",
                          "--no-discovery", "--no-dashboard", "--no-web", "--data-dir", os.path.join(work, "data")],
                         capture_output=True, text=True, timeout=30, env=base_env(WAYLAND_DISPLAY=SOCKET, REMOTION_NO_UINPUT="1"))
    err = [l for l in bad.stderr.splitlines() if l.strip()]
    check("--output naming no output: exit 1, one line listing the outputs there are",
          bad.returncode == 1 and len(err) == 1 and 'no output named "DP-9"' in err[0]
          and "HEADLESS-2 512x384 at 1280,0 scale 2" in err[0], (bad.returncode, err))

    # 6. A socket that is no compositor: it accepts and never answers.
    silent = socket.socket(socket.AF_UNIX)
    silent.bind(os.path.join(runtime, "wayland-silent"))
    silent.listen(4)
    bad = subprocess.run([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "wlroots", "--no-discovery",
                          "--no-dashboard", "--no-web", "--data-dir", os.path.join(work, "data")], capture_output=True,
                         text=True, timeout=30, env=base_env(WAYLAND_DISPLAY="wayland-silent"))
    err = [l for l in bad.stderr.splitlines() if l.strip()]
    check("--inject wlroots on a socket that is no compositor: exit 1 with one line saying so, no crash",
          bad.returncode == 1 and len(err) == 1 and "not a Wayland compositor" in err[0], (bad.returncode, err))
    bad = subprocess.run([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--inject", "auto", "--no-discovery",
                          "--no-dashboard", "--no-web", "--data-dir", os.path.join(work, "data")], capture_output=True,
                         text=True, timeout=30, env=base_env(WAYLAND_DISPLAY="wayland-silent", REMOTION_NO_UINPUT="1"))
    err = [l for l in bad.stderr.splitlines() if l.strip()]
    check("--inject auto there: exit 1, one line naming the socket's problem and uinput's remedy",
          bad.returncode == 1 and len(err) == 1 and "did not answer as a compositor" in err[0], (bad.returncode, err))
    silent.close()
    # No XDG_RUNTIME_DIR (a service, cron): libwayland's own stderr complaint stays out; one line.
    env = base_env(WAYLAND_DISPLAY=SOCKET, REMOTION_NO_UINPUT="1", XDG_SESSION_TYPE="wayland")
    del env["XDG_RUNTIME_DIR"]
    bad = subprocess.run([a.bin, "host", "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-dashboard",
                          "--no-web", "--data-dir", os.path.join(work, "data")], capture_output=True, text=True,
                         timeout=30, env=env)
    err = [l for l in bad.stderr.splitlines() if l.strip()]
    check("no XDG_RUNTIME_DIR: exit 1 with one line that names it", bad.returncode == 1 and len(err) == 1
          and "XDG_RUNTIME_DIR" in err[0], (bad.returncode, err))
finally:
    finish()
