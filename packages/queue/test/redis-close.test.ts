import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { deleteKeys, freshPrefix, REDIS_URL } from "./support/redis-test-env";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "fixtures/open-use-close.ts");
let prefix = freshPrefix();
afterEach(async () => {
  await deleteKeys(REDIS_URL, prefix);
  prefix = freshPrefix();
});

it("leaves nothing open after close: a process that used the queue and the bus exits by itself", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, REDIS_URL, prefix], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  // A liveness bound, not a timing: a leaked handle keeps the process alive for ever.
  const exitCode = await new Promise<number | string>((resolve) => {
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      resolve("still running 30 s after it closed the queue and the bus");
    }, 30_000);
    child.once("exit", (code) => {
      clearTimeout(guard);
      resolve(code ?? "killed");
    });
  });
  expect({ exitCode, output: output.trim() }).toEqual({ exitCode: 0, output: "closed a b null hello" });
});
