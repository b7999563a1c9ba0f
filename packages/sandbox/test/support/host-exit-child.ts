// Child process for the host-exit tests: creates a sandbox with a background process, prints
// its pids and directory, then either exits without closing it or waits to be SIGKILLed.
import { BubblewrapRuntime } from "../../src/index";

const [baseDir, mode] = process.argv.slice(2);
const runtime = new BubblewrapRuntime({ baseDir: baseDir!, warn: () => {} });
const sandbox = await runtime.create({});
await sandbox.runTool("bash", { command: "sleep 1000 &" });
process.stdout.write(`${JSON.stringify({ pids: sandbox.processIds(), root: `${baseDir}/${sandbox.id}` })}\n`);
if (mode === "exit") process.exit(0);
setInterval(() => {}, 1_000);
