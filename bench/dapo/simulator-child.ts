// Child process of `simulator-process.ts`: the simulator on its own core (the bench's engine would
// otherwise share one event loop with it). Talks over the IPC channel only.
import { type SimulatorOptions, startSimulator } from "@raas/simulator";

type Message =
  | { type: "start"; options: SimulatorOptions }
  | { type: "snapshot"; id: number }
  | { type: "close" };

let simulator: Awaited<ReturnType<typeof startSimulator>> | null = null;
process.on("message", (message: Message) => {
  if (message.type === "start")
    void startSimulator(message.options).then((started) => {
      simulator = started;
      process.send?.({ type: "ready", url: started.url, modelName: started.modelName });
    });
  else if (!simulator) return;
  else if (message.type === "snapshot")
    process.send?.({ type: "snapshot", id: message.id, snapshot: simulator.snapshot() });
  else
    void simulator.close().then(() => {
      process.disconnect?.();
      process.exit(0);
    });
});
// The parent went away: do not linger.
process.on("disconnect", () => process.exit(0));
