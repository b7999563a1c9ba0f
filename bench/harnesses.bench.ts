// `npm run bench -- harnesses [--tasks 10] [--recipes codex,claude-code,qwen-code] [--no-example]`:
// the real agent CLIs (harness recipes, `packages/handlers/src/harness/recipes/`) beside the swe
// handler's built-in agent loop (no CLI, no gateway) on the same shipped SWE fixtures — the first
// `--tasks` of `packages/handlers/data/swe/instances.jsonl` (default all ten), each solved once per
// arm, one job at a time (about five minutes on two quiet cores once the CLIs are installed).
// Everything is real (bubblewrap sandboxes, the CLI and its own tool execution, the gateway's
// chat / Messages / Responses formats) but the model: the simulator (the labelled test double)
// answers at zero time per token, playing the fixture's gold-patch script — through the built-in
// loop's `bash`/`submit` tools (scripted policy), and through each CLI's own shell and write tools
// (harness-agnostic policy; the same four steps: look, write the fix, apply it, finish).
//
// Per arm: model calls per task, the gateway's own time per call (p50 of each call record's
// `overheadMs`: what the gateway spent besides the routed pool's generation — render, tokenize,
// parse, answer — measured in the server; none for the built-in loop, which calls the pool
// directly), prompt tokens per call, the certified share (jobs, and sampled tokens, whose chains are
// all token-exact, no split; for the built-in loop, whether each turn's prompt repeats the turn
// before it, as recorded), the split-chain rate (jobs whose certificate has a split chain: the CLI
// rewrote its history or did not send an answer back as sampled), split chains and all chains per
// task (a title call or a sub-agent is an exact chain of its own), and
// wall time per task (INIT + RUN + EVAL inside the stages, p50) and of RUN alone. The example
// harness (`packages/handlers/data/harness/swe_agent.py`, through the gateway, scripted policy) is
// a row too unless `--no-example`: the gateway's figures with a harness that keeps its history.
// Recipes are installed into the install cache (RAAS_HARNESS_CACHE, default
// `<tmpdir>/raas-harnesses`) before anything is timed; that time is reported apart (`installS`,
// ~0 once cached). A recipe the catalog marks blocked (none today) is listed, not run, unless named
// in `--recipes`.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createHarnessInstallCache, HARNESS_RECIPES } from "@raas/handlers";
import { buildHarnessSwePolicyConfig, buildSwePolicyConfig, type SweScriptInstance } from "@raas/simulator";
import type { Bench, BenchRow } from "./bench.types";
import { type HarnessBenchRig, readSweFixtures, startHarnessBenchRig } from "./harnesses/harness-bench-rig";
import {
  breakRegionCounts,
  gatewayOverheadByCallIndex,
  summarizeArm,
  type TaskSample,
} from "./harnesses/harness-summary";

type RecipeName = keyof typeof HARNESS_RECIPES;

const isRecipeName = (name: string): name is RecipeName => Object.hasOwn(HARNESS_RECIPES, name);

const HARNESS_TIMEOUT_MS = 300_000;

/** `claude-code` → `claudeCode`, for summary keys. */
const camelCase = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

function parseRecipes(value: string | undefined): RecipeName[] {
  const names = value
    ? value.split(",").filter(Boolean)
    : Object.values(HARNESS_RECIPES)
        .filter((recipe) => recipe.blocked === null)
        .map((recipe) => recipe.name);
  const known = names.filter(isRecipeName);
  const unknown = names.filter((name) => !isRecipeName(name));
  if (unknown.length > 0)
    throw new Error(
      `unknown recipe ${unknown.join(", ")}; known: ${Object.keys(HARNESS_RECIPES).join(", ")}`,
    );
  return known;
}

async function runArm(
  rig: HarnessBenchRig,
  name: string,
  tasks: readonly SweScriptInstance[],
  job: (instance: SweScriptInstance) => { kind: "swe" | "harness"; payload: Record<string, unknown> },
): Promise<TaskSample[]> {
  const samples: TaskSample[] = [];
  for (const instance of tasks) {
    const { kind, payload } = job(instance);
    const sample = await rig.runTask(kind, payload, instance.instance_id);
    console.error(
      `[harnesses] ${name} ${instance.instance_id}: reward ${sample.reward}, ${sample.calls.length} calls, ${(sample.wallMs / 1_000).toFixed(1)} s`,
    );
    samples.push(sample);
  }
  return samples;
}

const bench: Bench = {
  name: "harnesses",
  description:
    "real agent CLIs (harness recipes) beside the built-in swe agent loop on the shipped SWE fixtures, bubblewrap sandboxes, simulator policy at zero time per token: calls per task, gateway overhead per call (p50 of the recorded overheadMs), prompt tokens per call, certified share, split-chain rate, wall time per task",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        tasks: { type: "string" },
        recipes: { type: "string" },
        "no-example": { type: "boolean", default: false },
      },
    });
    const fixtures = readSweFixtures();
    const taskCount = values.tasks === undefined ? fixtures.length : Number(values.tasks);
    if (!Number.isInteger(taskCount) || taskCount < 1 || taskCount > fixtures.length)
      throw new Error(`--tasks must be an integer from 1 to ${fixtures.length} (the shipped fixtures)`);
    const tasks = fixtures.slice(0, taskCount);
    const solve = new Set(tasks.map((task) => task.instance_id));
    const recipes = parseRecipes(values.recipes);
    const harnessCacheDir = process.env.RAAS_HARNESS_CACHE ?? join(tmpdir(), "raas-harnesses");

    const arms: Array<{ name: string; samples: TaskSample[]; installS: number | null }> = [];
    const scripted = await startHarnessBenchRig({
      policy: buildSwePolicyConfig(tasks, solve),
      harnessCacheDir,
    });
    try {
      arms.push({
        name: "built-in",
        samples: await runArm(scripted, "built-in", tasks, (instance) => ({
          kind: "swe",
          payload: { instance },
        })),
        installS: null,
      });
      if (!values["no-example"]) {
        arms.push({
          name: "example-harness",
          samples: await runArm(scripted, "example-harness", tasks, (instance) => ({
            kind: "harness",
            payload: { task: { instance }, timeoutMs: HARNESS_TIMEOUT_MS },
          })),
          installS: null,
        });
      }
    } finally {
      await scripted.close();
    }

    const installCache = createHarnessInstallCache({ cacheDir: harnessCacheDir });
    const agnostic = await startHarnessBenchRig({
      policy: buildHarnessSwePolicyConfig(tasks, solve),
      harnessCacheDir,
    });
    try {
      for (const recipe of recipes) {
        const installStart = performance.now();
        await installCache.ensureInstalled(HARNESS_RECIPES[recipe]);
        const installS = (performance.now() - installStart) / 1_000;
        arms.push({
          name: recipe,
          samples: await runArm(agnostic, recipe, tasks, (instance) => ({
            kind: "harness",
            payload: { task: { instance }, recipe, timeoutMs: HARNESS_TIMEOUT_MS },
          })),
          installS: Number(installS.toFixed(1)),
        });
      }
    } finally {
      await agnostic.close();
    }

    const rows: BenchRow[] = arms.map(({ name, samples, installS }) => ({
      ...summarizeArm(name, samples),
      installS,
    }));
    const blocked = Object.values(HARNESS_RECIPES).filter(
      (recipe) => recipe.blocked !== null && !(recipes as readonly string[]).includes(recipe.name),
    );
    for (const recipe of blocked) rows.push({ name: `${recipe.name} (blocked, not run)` });
    const builtIn = rows[0]!;
    const summary: Record<string, string | number | boolean | null> = {
      tasks: tasks.length,
      builtInCallsPerTask: builtIn.callsPerTask ?? null,
      builtInWallP50S: builtIn.wallP50S ?? null,
      failures: rows.reduce((total, row) => total + (typeof row.failures === "number" ? row.failures : 0), 0),
    };
    for (const row of rows.slice(1)) {
      if (row.tasks === undefined) continue;
      const key = camelCase(row.name);
      summary[`${key}GatewayOverheadP50Ms`] = row.gatewayOverheadP50Ms ?? null;
      summary[`${key}CertifiedJobShare`] = row.certifiedJobShare ?? null;
      summary[`${key}SplitChainRate`] = row.splitChainRate ?? null;
      summary[`${key}WallP50S`] = row.wallP50S ?? null;
    }
    for (const recipe of blocked) summary[`${camelCase(recipe.name)}Blocked`] = recipe.blocked;
    return {
      bench: "harnesses",
      description: bench.description,
      rows,
      summary,
      config: {
        tasks: tasks.map((task) => task.instance_id),
        recipes: recipes.map((name) => `${name}@${HARNESS_RECIPES[name].version}`),
        withExample: !values["no-example"],
        harnessCacheDir,
        breakRegions: Object.fromEntries(arms.map(({ name, samples }) => [name, breakRegionCounts(samples)])),
        gatewayOverheadP50ByCallIndexMs: Object.fromEntries(
          arms.map(({ name, samples }) => [name, gatewayOverheadByCallIndex(samples)]),
        ),
      },
    };
  },
};

export default bench;
