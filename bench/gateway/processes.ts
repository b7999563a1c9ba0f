// The processes of `npm run bench -- gateway` besides the server: the simulator (the labelled test
// double, in a process of its own as a real backend would be) and the harnesses (in a process of
// their own, as harnesses run in sandboxes).
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { type DirectSession, type HarnessSession, runConversations, runDirectCalls } from "./harness-client";

const root = resolve(import.meta.dirname, "../..");

/** What the harness process answers: wall time (and for direct calls the answer) per `<key>:<call>`. */
export interface HarnessOutput {
  wallMs: Record<string, number>;
  answers?: Record<string, string>;
}

export type HarnessWork =
  | { sessions: HarnessSession[]; calls: number; toolOutputLines?: number }
  | { direct: DirectSession[] };

/** Runs `work` in a harness process of its own, or in this one (`inline`). */
export async function runHarnesses(work: HarnessWork, where: "process" | "inline"): Promise<HarnessOutput> {
  if (where === "inline") {
    return "direct" in work
      ? runDirectCalls(work.direct)
      : { wallMs: await runConversations(work.sessions, work.calls, work.toolOutputLines) };
  }
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "bench/gateway/harness-client.ts")], {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(JSON.stringify(work));
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((done) => child.once("exit", done));
  if (code !== 0) throw new Error(`the harness process exited with ${code}`);
  return JSON.parse(output) as HarnessOutput;
}

/** The simulator in a process of its own (zero prefill time), as a real backend would be. */
export async function startSimulatorProcess(
  maxConcurrency: number,
  decodeMsPerToken: number,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "apps/simulator/src/main.ts"),
      "--port",
      "0",
      "--prefill-ms-per-token",
      "0",
      "--decode-ms-per-token",
      String(decodeMsPerToken),
      "--max-concurrency",
      String(maxConcurrency),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /"url":"([^"]+)"/.exec(stdout);
      if (match) resolveUrl(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { child, url };
}
