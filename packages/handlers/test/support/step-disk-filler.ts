// Fills a disk just before the k-th sandbox call a grader makes, so a test can meet the full disk
// at every step of a grade in turn (writing the solution or tests, planting canaries, running).
import type { Sandbox } from "@raas/engine";

/** Calls that may write to the sandbox's disk. */
const STEPS = new Set<PropertyKey>(["exec", "runTool", "writeFile", "uploadTar"]);

export class StepDiskFiller {
  /** Steps seen since the last `arm`. */
  steps = 0;
  #fillBefore: number | null = null;

  constructor(private readonly fill: () => void) {}

  /** Counts from 0 again; fills before step `step` (1-based), or never when null. */
  arm(step: number | null): void {
    this.steps = 0;
    this.#fillBefore = step;
  }

  /** `sandbox`, its writing calls counted (and the disk filled before the armed one). */
  wrap(sandbox: Sandbox): Sandbox {
    return new Proxy(sandbox, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (!STEPS.has(property)) return value.bind(target);
        return (...args: unknown[]) => {
          this.steps += 1;
          if (this.steps === this.#fillBefore) this.fill();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}
