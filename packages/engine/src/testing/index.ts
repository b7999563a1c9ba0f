// Test support for every package above the engine: `import { ManualClock } from "@raas/engine/testing"`.
// Production code never imports this subpath.
export { ManualClock } from "./manual-clock";
