import { SoakProcess } from "./soak-process";
import { ROOT, TRAINER_TOKEN } from "./soak-stack";

export interface TrainerOptions {
  serverUrl: string;
  /** Starts no step after this many seconds. */
  seconds: number;
  /** Stops after this many steps (the warm-up). */
  maxSteps?: number;
  runName: string;
  groups: number;
  groupSize: number;
  dataset: string;
  onStep(step: { step: number; ms: number; groups: number }): void;
}

/** `soak_trainer.py` (the shipped Python client) as a child; resolves to its exit once it is done. */
export function startTrainer(options: TrainerOptions): { proc: SoakProcess; done: Promise<void> } {
  let failure: string | null = null;
  const args = [
    "bench/soak/soak_trainer.py",
    ...["--url", options.serverUrl, "--token", TRAINER_TOKEN, "--run-name", options.runName],
    ...["--seconds", String(options.seconds), "--dataset", options.dataset],
    ...["--groups", String(options.groups), "--group-size", String(options.groupSize)],
    ...(options.maxSteps === undefined ? [] : ["--max-steps", String(options.maxSteps)]),
  ];
  const proc = new SoakProcess("trainer", "python3", args, {
    cwd: ROOT,
    env: { ...process.env, PYTHONUNBUFFERED: "1" },
    onLine: (line) => {
      if (line.startsWith("FAIL:")) failure = line;
      if (!line.startsWith("{")) return;
      const record = JSON.parse(line) as { step?: number; ms?: number; groups?: number };
      if (record.step !== undefined && record.ms !== undefined)
        options.onStep({ step: record.step, ms: record.ms, groups: record.groups ?? 0 });
    },
  });
  const done = proc.exited.then((code) => {
    if (code !== 0) throw new Error(`the trainer exited with ${code}: ${failure ?? proc.tail()}`);
  });
  // Observed by the caller; this keeps an early failure from being reported as unhandled.
  done.catch(() => {});
  return { proc, done };
}
