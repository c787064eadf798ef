// The dashboard's output picker (docs/DASHBOARD.md, "Output"): the outputs the injector knows
// (name and size), the one the pointer covers marked, and Save, which sends PUT /api/output
// with the token (docs/SECURITY.md §5.3): the host moves its pointer there and writes
// `[inject] output` into config.toml. Reads the outputs from GET /api/snapshot every 2 s;
// an injector without outputs, or a host started with --output, is said instead. Answers and
// errors go to the page's usual place (#settings-status). Uses WRITE_HEADERS and $ from dashboard.js.
"use strict";

(() => {
  const choice = $("output-choice");
  const save = $("output-save");
  const note = $("output-note");
  let shown;            // the outputs last drawn (JSON): an unchanged list is not rebuilt under the person's choice
  let edited = false;   // the person picked one and has not saved it yet

  function say(text, error) {
    const status = $("settings-status");
    status.textContent = text;
    status.className = error ? "hint error" : "hint";
  }

  function render(outputs) {
    const key = JSON.stringify(outputs ?? null);
    if (key === shown) return;
    shown = key;
    document.body.dataset.outputInUse = outputs?.inUse ?? "";
    if (!outputs) {
      choice.hidden = save.hidden = true;
      note.textContent = "This injector has no outputs to choose: absolute motion covers the whole screen.";
      return;
    }
    const picked = edited ? choice.value : null;
    choice.replaceChildren(...outputs.outputs.map((o) => {
      const option = document.createElement("option");
      option.value = o.name;   // names come from the compositor: text only, never HTML
      option.textContent = `${o.name} ${o.width}×${o.height}` + (o.name === outputs.inUse ? " (in use)" : "");
      return option;
    }));
    choice.value = picked ?? outputs.inUse ?? outputs.chosen ?? "";
    choice.hidden = save.hidden = false;
    choice.disabled = save.disabled = outputs.commandLine;
    note.textContent = outputs.commandLine ? `The command line decides (--output ${outputs.chosen}).`
      : outputs.inUse ? ""
      : outputs.chosen ? `${outputs.chosen} is gone: the pointer covers the whole layout until it is back.`
      : "The pointer covers the whole layout until you choose an output.";
  }

  async function choose() {
    try {
      const response = await fetch("/api/output", {
        method: "PUT", headers: WRITE_HEADERS, body: JSON.stringify({ output: choice.value }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.error || response.statusText);
      edited = false;
      say(`the pointer covers ${body.inUse} now (saved as [inject] output)`, false);
      render(body);
    } catch (e) {
      say(e.message, true);
    }
  }

  async function refresh() {
    try {
      const response = await fetch("/api/snapshot");
      if (response.ok) render((await response.json()).outputs);
    } catch (e) { /* the link's state says the host is gone */ }
  }

  choice.addEventListener("change", () => { edited = true; });
  save.addEventListener("click", choose);
  refresh();
  setInterval(refresh, 2000);
})();
