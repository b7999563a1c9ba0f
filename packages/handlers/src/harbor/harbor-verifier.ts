import { randomBytes } from "node:crypto";
import type { Sandbox } from "@raas/engine";
import { policyFailure, stageFailure } from "@raas/shared";
import { HARBOR_WORKSPACE } from "./harbor-dockerfile";
import { rewriteHarborPaths, verifierPathMap } from "./harbor-paths";
import { type HarborReward, parseHarborReward } from "./harbor-reward";
import type { THarborFile } from "./harbor-task.schema";
import { HARBOR_VERIFIER_SH } from "./harbor-verifier.script";
import { fileBytes } from "./harbor-workspace";

/** What one run of the task's tests/test.sh gave. */
export interface HarborVerifierOutcome extends HarborReward {
  /** test.sh's exit status. */
  exitCode: number;
  /** The last 4 KiB of test.sh's output (stdout and stderr). */
  outputTail: string;
  durationMs: number;
}

/**
 * A reward file the tests cannot have written: when the tests' text names only one of reward.txt
 * and reward.json, the other can only come from code they ran — and since reward.json wins,
 * a policy's program that writes it would otherwise overrule the tests. Naming both or neither
 * (a name built at run time) leaves Harbor's rule: reward.json first.
 */
function forgedRewardFile(
  tests: readonly THarborFile[],
  found: { txt: boolean; json: boolean },
): string | null {
  const text = tests.filter((f) => f.encoding === "utf8").map((f) => f.content);
  const namesTxt = text.some((t) => t.includes("reward.txt"));
  const namesJson = text.some((t) => t.includes("reward.json"));
  if (namesTxt === namesJson) return null;
  if (found.json && !namesJson) return "reward.json";
  if (found.txt && !namesTxt) return "reward.txt";
  return null;
}

/** Time the wrapper may take beyond the tests' own limit (placing files, reading rewards), in ms. */
const WRAPPER_SLACK_MS = 60_000;

function parseFrames(stdout: string, nonce: string): Map<string, string[]> {
  const frames = new Map<string, string[]>();
  const prefix = `RAAS-HARBOR ${nonce} `;
  for (const line of stdout.split("\n")) {
    if (!line.startsWith(prefix)) continue;
    const [tag = "", ...rest] = line.slice(prefix.length).split(" ");
    frames.set(tag === "file" ? `file:${rest[0]}` : tag, rest);
  }
  return frames;
}

const decode = (b64: string | undefined) => Buffer.from(b64 ?? "", "base64").toString("utf8");

/**
 * Runs the task's `tests/test.sh` in `sandbox` (already holding the agent's final workspace) and
 * reads the reward its real run wrote. Harbor's `/tests` and `/logs/verifier` are a fresh
 * directory in the command's private /tmp, made for this run (see `HARBOR_VERIFIER_SH`): nothing
 * the agent wrote or left running during RUN is read as a reward. A verifier that runs past its
 * limit fails the stage as `timeout`; one that crashes or writes no usable reward as `eval` —
 * infrastructure either way, never a reward of 0. Sandbox errors propagate (the caller's sandbox
 * turns them into `sandbox` failures).
 */
export async function runHarborVerifier(
  sandbox: Sandbox,
  input: {
    tests: readonly THarborFile[];
    workdir: string;
    timeoutSec: number;
    env: Record<string, string>;
    /** Files placed in Harbor's `/logs/agent` for the tests to read (the trajectory's turns). */
    agentLogs?: readonly { path: string; content: string }[];
    signal: AbortSignal;
  },
): Promise<HarborVerifierOutcome> {
  const nonce = randomBytes(16).toString("hex");
  const root = `/tmp/raas-harbor-${randomBytes(8).toString("hex")}`;
  const map = verifierPathMap(input.workdir, HARBOR_WORKSPACE, root);
  const { HOME: home = "", ...env } = input.env;
  const lines = [nonce, root, rewriteHarborPaths(home, map)];
  for (const file of input.tests) {
    const bytes = fileBytes(file, map);
    lines.push(
      `F\t${file.executable ? "x" : "-"}\ttests/${file.path}\t${Buffer.from(bytes).toString("base64")}`,
    );
  }
  for (const log of input.agentLogs ?? []) {
    lines.push(`F\t-\tlogs/agent/${log.path}\t${Buffer.from(log.content, "utf8").toString("base64")}`);
  }
  lines.push("E", "");
  const limitSec = Math.max(1, Math.ceil(input.timeoutSec));
  const run = await sandbox.exec(["bash", "-c", HARBOR_VERIFIER_SH, "harbor-verifier", String(limitSec)], {
    stdin: lines.join("\n"),
    cwd: HARBOR_WORKSPACE,
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, rewriteHarborPaths(v, map)])),
    timeoutMs: limitSec * 1000 + WRAPPER_SLACK_MS,
    maxOutputBytes: 8 * 1024 ** 2,
    signal: input.signal,
  });
  const frames = parseFrames(run.stdout, nonce);
  const outputTail = decode(frames.get("tail")?.[0]);
  if (run.timedOut || frames.has("timeout")) {
    throw stageFailure("timeout", `the verifier (tests/test.sh) ran past its limit of ${limitSec}s`, {
      result: { outputTail },
    });
  }
  const setup = frames.get("setup");
  if (setup !== undefined) throw stageFailure("eval", `the verifier could not start: ${setup.join(" ")}`);
  const exit = frames.get("exit");
  if (exit === undefined) {
    throw stageFailure(
      "eval",
      `the verifier ended before reporting (exit ${run.exitCode}${run.signal ? `, ${run.signal}` : ""}): ${run.stderr.slice(-400)}`,
    );
  }
  const exitCode = Number(exit[0]);
  const tooLarge = frames.get("toolarge");
  if (tooLarge !== undefined)
    throw stageFailure("eval", `the verifier's ${tooLarge[0]} is larger than 1 MiB`);
  const txt = frames.get("file:reward.txt");
  const json = frames.get("file:reward.json");
  const forged = forgedRewardFile(input.tests, { txt: txt !== undefined, json: json !== undefined });
  if (forged !== null) {
    throw policyFailure(
      `${forged} appeared in /logs/verifier, but the task's tests never name it: code the tests ran (the policy's) wrote it`,
      { label: "tampered", result: { exitCode, outputTail } },
    );
  }
  const reward = parseHarborReward({
    txt: txt === undefined ? null : decode(txt[1]),
    json: json === undefined ? null : decode(json[1]),
  });
  if (typeof reward === "string") {
    const crashed = exitCode !== 0 ? `tests/test.sh exited ${exitCode} and ` : "";
    throw stageFailure("eval", `the verifier failed: ${crashed}${reward}`, {
      result: { exitCode, outputTail },
    });
  }
  return { ...reward, exitCode, outputTail, durationMs: Math.round(run.durationMs) };
}
