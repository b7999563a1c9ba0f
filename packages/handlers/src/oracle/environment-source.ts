import { lstat, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { TStepTask } from "@raas/shared";
import { requestFailure } from "@raas/shared";
import { parse as parseToml } from "smol-toml";
import { harborJobRequest, harborOracleScript, loadHarborDataset } from "../harbor/harbor-task-loader";
import { judgeJobRequest, loadJudgeEnvironment } from "../judge/judge-env-loader";
import { loadRewardEnvironment, rewardFnJobRequest } from "../reward-fn/reward-env-loader";
import type { TRewardFnPayload } from "../reward-fn/reward-fn-payload.schema";
import type { OracleTurn } from "./oracle-policy";
import { solveScriptTurn, submitCall } from "./oracle-policy";

/** The environment kinds a directory can hold (the handler kind of its tasks). */
const ENVIRONMENT_KINDS = ["harbor", "reward-fn", "judge"] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

/** A submit request of one job (kind, payload, stage budgets). */
interface EnvironmentJobRequest {
  kind: EnvironmentKind;
  payload: { taskId: string } & Record<string, unknown>;
  timeoutsMs: Record<string, number>;
}

/** One task of an environment, with what its oracle check runs. */
export interface EnvironmentTask {
  /** The task's id within the environment (a Harbor task's name, a dataset row's id). */
  id: string;
  /** Its submit request, under its own task id. */
  request: EnvironmentJobRequest;
  /** The reference solution as tool calls; null when the task has none. */
  oracle: OracleTurn[] | null;
  /** Doing nothing: submit straight away (an empty answer). */
  noop: OracleTurn[];
  /** Why the task cannot run here (it needs an image), or null. */
  incompatibility: string | null;
}

/** An environment directory read from disk. */
export interface LoadedEnvironment {
  dir: string;
  kind: EnvironmentKind;
  name: string;
  description: string | null;
  tasks: EnvironmentTask[];
  /**
   * The least reward a task's reference solution must earn in the oracle check: 1 (full) for
   * Harbor and reward-fn tasks; a judge environment's pass threshold (a judge grades a reference
   * answer near the top, not always at it).
   */
  oracleMinReward: number;
}

async function isFile(path: string): Promise<boolean> {
  const stat = await lstat(path).catch(() => null);
  return stat?.isFile() ?? false;
}

/**
 * The kind of an environment directory: with an `environment.toml`, `judge` when it has a
 * `[judge]` table, else `reward-fn`; without one `harbor` (one task directory or a dataset of
 * them; the Harbor loader says what is missing).
 */
export async function detectEnvironmentKind(dir: string): Promise<EnvironmentKind> {
  const stat = await lstat(dir).catch(() => null);
  if (stat === null || !stat.isDirectory())
    throw requestFailure("VALIDATION_FAILED", `${dir}: not a directory on the server`, {
      details: { file: dir },
    });
  const manifest = join(dir, "environment.toml");
  if (!(await isFile(manifest))) return "harbor";
  return hasJudgeTable(await readFile(manifest, "utf8")) ? "judge" : "reward-fn";
}

/** A `judge` table in the manifest; TOML that does not parse is left to the kind's loader to report. */
function hasJudgeTable(text: string): boolean {
  try {
    return "judge" in parseToml(text);
  } catch {
    return false;
  }
}

/** A row's reference answer: its `ground_truth` as text (a string as it is, other JSON encoded). */
function referenceAnswer(task: TRewardFnPayload): string {
  return typeof task.groundTruth === "string" ? task.groundTruth : JSON.stringify(task.groundTruth);
}

async function loadHarbor(dir: string): Promise<LoadedEnvironment> {
  const loaded = await loadHarborDataset(dir);
  const tasks = loaded.map((one): EnvironmentTask => {
    const script = harborOracleScript(one.task);
    const request =
      one.hostIncompatibility === null
        ? harborJobRequest(one)
        : { kind: "harbor" as const, payload: { taskId: one.task.name, task: one.task }, timeoutsMs: {} };
    return {
      id: one.task.name,
      request,
      oracle: script === null ? null : [solveScriptTurn(script)],
      noop: [],
      incompatibility: one.hostIncompatibility,
    };
  });
  return { dir, kind: "harbor", name: basename(dir), description: null, tasks, oracleMinReward: 1 };
}

async function loadRewardFn(dir: string): Promise<LoadedEnvironment> {
  const env = await loadRewardEnvironment(dir);
  const tasks = env.tasks.map(
    (task): EnvironmentTask => ({
      id: task.taskId,
      request: rewardFnJobRequest(task),
      oracle: [[submitCall(referenceAnswer(task))]],
      noop: [[submitCall("")]],
      incompatibility: null,
    }),
  );
  return { dir, kind: "reward-fn", name: env.name, description: env.description, tasks, oracleMinReward: 1 };
}

async function loadJudge(dir: string): Promise<LoadedEnvironment> {
  const env = await loadJudgeEnvironment(dir);
  const tasks = env.tasks.map(
    (task): EnvironmentTask => ({
      id: task.taskId,
      request: judgeJobRequest(task),
      // The reference answer, where the row gives one: a judge should grade it near the top.
      oracle: task.judge.reference === null ? null : [[submitCall(task.judge.reference)]],
      noop: [[submitCall("")]],
      incompatibility: null,
    }),
  );
  return {
    dir,
    kind: "judge",
    name: env.name,
    description: env.description,
    tasks,
    oracleMinReward: env.passReward,
  };
}

/**
 * Reads an environment directory of any kind: a Harbor task directory or dataset, a Python
 * reward-function environment, or a judge environment. A missing or malformed part throws a `VALIDATION_FAILED` failure
 * naming the file and the field.
 */
export async function loadEnvironment(dir: string): Promise<LoadedEnvironment> {
  const kind = await detectEnvironmentKind(dir);
  if (kind === "judge") return loadJudge(dir);
  return kind === "reward-fn" ? loadRewardFn(dir) : loadHarbor(dir);
}

/** The environment's tasks as a training step's task source takes them (those that can run here). */
export function environmentStepTasks(env: LoadedEnvironment): TStepTask[] {
  return env.tasks
    .filter((task) => task.incompatibility === null)
    .map((task) => ({ taskId: task.id, kind: env.kind, payload: task.request.payload }));
}

/** What registration records of an environment directory (it is read whole, so it is valid). */
export async function inspectEnvironment(dir: string): Promise<{
  kind: EnvironmentKind;
  name: string;
  description: string | null;
  taskCount: number;
}> {
  const env = await loadEnvironment(dir);
  return { kind: env.kind, name: env.name, description: env.description, taskCount: env.tasks.length };
}
