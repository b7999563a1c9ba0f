// Child process for the host-exit tests: creates a sandbox with a background process, prints
// its pids and directory, then either exits without closing it or waits to be SIGKILLed.
import { existsSync, readFileSync } from "node:fs";
import { BubblewrapRuntime } from "../../src/index";

const [baseDir, mode] = process.argv.slice(2);
const runtime = new BubblewrapRuntime({ baseDir: baseDir!, warn: () => {} });
const sandbox = await runtime.create({});
await sandbox.runTool("bash", { command: "sleep 1000 &" });
const root = `${baseDir}/${sandbox.id}`;
const cgroupsFile = `${root}/cgroups.json`;
const cgroups = existsSync(cgroupsFile) ? JSON.parse(readFileSync(cgroupsFile, "utf8")) : [];
process.stdout.write(`${JSON.stringify({ pids: sandbox.processIds(), root, cgroups })}\n`);
if (mode === "exit") process.exit(0);
setInterval(() => {}, 1_000);
