// Runs the page's self-checks (page/app/selftest.js) under node: prints PASS/FAIL per check
// and "N passed, N failed"; exits 1 on any failure.
import { run } from "../../Sources/App/Web/Page/app/selftest.js";

const results = await run();
let passed = 0, failed = 0;
for (const r of results) {
  if (r.ok) passed++; else failed++;
  console.log(`${r.ok ? "PASS" : "FAIL"} ${r.name}${r.detail && (!r.ok || r.detail.startsWith("max")) ? " — " + r.detail : ""}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
