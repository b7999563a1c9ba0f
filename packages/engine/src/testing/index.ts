// Test support for every package above the engine, imported from the `@raas/engine/testing`
// subpath by tests only (check-deps refuses it in production code).

export { ManualClock } from "./manual-clock";
