// selftest-clock.js — a fake clock for the self-checks: setTimeout/clearTimeout whose
// callbacks run only when `advance(ms)` moves time past them, the earliest first (a callback
// may arm more). `advanceAsync` also lets promises settle before each timer and at the end
// (for code that awaits between timers). Imported by selftest-transport.js and selftest-lanes.js.

export function fakeClock() {
  let now = 0, nextId = 1;
  const pending = new Map();
  const timers = {
    setTimeout: (fn, ms) => { const id = nextId++; pending.set(id, { at: now + ms, fn }); return id; },
    clearTimeout: (id) => pending.delete(id),
  };
  // Runs the earliest timer due by `end`; false when none is.
  const step = (end) => {
    let best = null;
    for (const [id, p] of pending) if (p.at <= end && (!best || p.at < best[1].at)) best = [id, p];
    if (!best) return false;
    pending.delete(best[0]);
    now = best[1].at;
    best[1].fn();
    return true;
  };
  const settle = () => new Promise((r) => setImmediate(r));
  const advance = (ms) => {
    const end = now + ms;
    while (step(end));
    now = end;
  };
  const advanceAsync = async (ms) => {
    const end = now + ms;
    do { await settle(); } while (step(end));
    now = end;
    await settle();
  };
  return { timers, advance, advanceAsync, now: () => now };
}
