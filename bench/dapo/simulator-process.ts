// The simulator (the labelled GPU test double) in a child process, so that it and the engine
// under test each get a core of the bench machine instead of sharing one event loop.
import { fork } from "node:child_process";
import { join } from "node:path";
import type { SimulatorCounters, SimulatorOptions } from "@raas/simulator";

type SimulatorSnapshot = SimulatorCounters & { running: number; waiting: number; cacheBlocks: number };

export interface SimulatorProcess {
  url: string;
  modelName: string;
  snapshot(): Promise<SimulatorSnapshot>;
  close(): Promise<void>;
}

export async function startSimulatorProcess(options: SimulatorOptions): Promise<SimulatorProcess> {
  const child = fork(join(import.meta.dirname, "simulator-child.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (snapshot: SimulatorSnapshot) => void>();
  let nextId = 0;
  // The policy of thousands of tasks is too long for a command line: it goes over IPC.
  child.send({ type: "start", options });
  const ready = await new Promise<{ url: string; modelName: string }>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the simulator process exited with ${code} before it listened`)),
    );
    child.on(
      "message",
      (message: {
        type: string;
        id?: number;
        snapshot?: SimulatorSnapshot;
        url?: string;
        modelName?: string;
      }) => {
        if (message.type === "ready")
          resolve({ url: message.url as string, modelName: message.modelName as string });
        else if (message.type === "snapshot") {
          pending.get(message.id as number)?.(message.snapshot as SimulatorSnapshot);
          pending.delete(message.id as number);
        }
      },
    );
  });
  child.removeAllListeners("exit");
  return {
    ...ready,
    snapshot() {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ type: "snapshot", id });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.send({ type: "close" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
