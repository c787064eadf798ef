// page-state.js — the page's state, with one owner: the connection's last snapshot, the screen,
// the paired device, the page mode and what the modes hold (the host's labels, the laser),
// the pending host mode and the status line's flash. The transports and the modes write it
// through `update`; the view (main.js's render) and the test hook only read it.

export class PageState {
  constructor() {
    this.screen = "loading";        // loading, pair, unpaired, controller
    this.device = null;             // {id, credential, host}
    this.conn = null;               // the connection's last snapshot (connection.js)
    this.pageMode = "pointer";      // one of page-modes.js's ids
    this.labels = null;             // the host's button map: 16 actions
    this.laserOn = false;
    this.hostModePendingUntil = 0;  // a mode command sent, not yet confirmed (ms, performance.now)
    this.flash = { text: "", until: 0 };
    this.sentButtons = 0;
    this.pad = null;                // the host's last answer to a pad command: {on, available}
    this.gyroStick = null;          // the gyro stick the host says this controller has (its answer)
    this.listeners = [];
  }

  /** Changes some fields and tells every reader once. */
  update(patch) {
    Object.assign(this, patch);
    for (const f of this.listeners) f(this);
  }

  /** `f(state)` after every update. */
  subscribe(f) { this.listeners.push(f); }
}
