// `npm run bench -- curriculum [--steps 300] [--tasks 800] [--groups 8] [--group-size 8]
// [--learning-rate 0.5] [--transfer 1] [--concurrency 64] [--seed 1] [--windows 6]`: a simulated
// run of `--steps` steps, uniform against adaptive task sampling on the same tasks and learner.
// The learner (bench/curriculum/learning-model.ts, a labelled test double) raises a task's
// success probability each time one of its groups is handed to the trainer, and every task's a
// little with all training (general ability). Every trajectory is a job of a real RolloutEngine
// and every step a BatchSystem step (zero-variance dynamic sampling); see bench/curriculum/README.md.
import { parseArgs } from "node:util";
import type { TTaskSampling } from "@raas/shared";
import type { Bench, BenchRow } from "./bench.types";
import { startCurriculumRig } from "./curriculum/curriculum-rig";
import { runStrategy, type StepFigures } from "./curriculum/curriculum-run";
import { buildSimTasks, LearningModel } from "./curriculum/learning-model";
import { targetOf } from "./targets/bench-targets";
import { describeTarget, meetsTarget } from "./targets/target-verdict";

const LATE_INFORMATIVE_TARGET = targetOf("curriculum", "lateInformativeVsUniform");

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${flag}: expected a positive number, got "${text}"`);
  return value;
}

interface Window {
  fromStep: number;
  toStep: number;
  informativeFraction: number;
  tokensPerInformative: number;
}

/** Informative-group fraction (informative ÷ decided groups) and tokens per informative group per window of steps. */
function windowsOf(steps: readonly StepFigures[], count: number): Window[] {
  const size = Math.ceil(steps.length / count);
  const windows: Window[] = [];
  for (let from = 0; from < steps.length; from += size) {
    const slice = steps.slice(from, from + size);
    windows.push(figuresOf(slice, from));
  }
  return windows;
}

function figuresOf(slice: readonly StepFigures[], from: number): Window {
  const informative = slice.reduce((sum, s) => sum + s.informative, 0);
  const decided = slice.reduce((sum, s) => sum + s.decided, 0);
  const tokens = slice.reduce((sum, s) => sum + s.tokens, 0);
  return {
    fromStep: from,
    toStep: from + slice.length - 1,
    informativeFraction: decided === 0 ? 0 : informative / decided,
    tokensPerInformative: informative === 0 ? 0 : tokens / informative,
  };
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const bench: Bench = {
  name: "curriculum",
  description:
    "uniform vs adaptive task sampling over a simulated learner: informative-group fraction and generated tokens per informative group over a run",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        steps: { type: "string" },
        tasks: { type: "string" },
        groups: { type: "string" },
        "group-size": { type: "string" },
        "learning-rate": { type: "string" },
        transfer: { type: "string" },
        concurrency: { type: "string" },
        seed: { type: "string" },
        windows: { type: "string" },
      },
    });
    const config = {
      steps: Math.round(positive("steps", values.steps, 300)),
      tasks: Math.round(positive("tasks", values.tasks, 800)),
      groups: Math.round(positive("groups", values.groups, 8)),
      groupSize: Math.round(positive("group-size", values["group-size"], 8)),
      learningRate: positive("learning-rate", values["learning-rate"], 0.5),
      transfer: values.transfer === "0" ? 0 : positive("transfer", values.transfer, 1),
      concurrency: Math.round(positive("concurrency", values.concurrency, 64)),
      seed: Math.round(positive("seed", values.seed, 1)),
      windows: Math.round(positive("windows", values.windows, 6)),
    };
    const samplings: { name: string; sampling: TTaskSampling }[] = [
      { name: "uniform", sampling: { policy: "uniform" } },
      {
        name: "adaptive",
        sampling: {
          policy: "adaptive",
          targetPassRate: 0.5,
          windowSize: 16,
          retireAfterSolvedInARow: 16,
          reprobeEvery: 32,
          settledWeight: 0.05,
          scope: "run",
        },
      },
    ];
    const rows: BenchRow[] = [];
    const late = new Map<string, Window>();
    const results = new Map<string, Awaited<ReturnType<typeof runStrategy>>>();
    for (const { name, sampling } of samplings) {
      const tasks = buildSimTasks(config.tasks, config.seed);
      const model = new LearningModel(tasks, config.learningRate, config.transfer);
      const rig = await startCurriculumRig({
        tasks,
        model,
        seed: config.seed * 7_919,
        concurrency: config.concurrency,
      });
      try {
        const started = performance.now();
        const result = await runStrategy(rig, model, {
          steps: config.steps,
          groups: config.groups,
          groupSize: config.groupSize,
          sampling,
          shuffleSeed: config.seed,
          taskIds: tasks.map((t) => t.taskId),
          onProgress: (step) => {
            if ((step + 1) % 50 === 0) process.stderr.write(`  ${name}: step ${step + 1}/${config.steps}\n`);
          },
        });
        results.set(name, result);
        for (const window of windowsOf(result.steps, config.windows)) {
          rows.push({
            name,
            steps: `${window.fromStep}-${window.toStep}`,
            informativeFraction: round(window.informativeFraction, 3),
            tokensPerInfoGroup: Math.round(window.tokensPerInformative),
          });
        }
        // Late: the last third of the run.
        const lateFrom = Math.floor((config.steps * 2) / 3);
        late.set(name, figuresOf(result.steps.slice(lateFrom), lateFrom));
        const lateFigures = late.get(name) as Window;
        rows.push({
          name,
          steps: `late ${lateFigures.fromStep}-${lateFigures.toStep}`,
          informativeFraction: round(lateFigures.informativeFraction, 3),
          tokensPerInfoGroup: Math.round(lateFigures.tokensPerInformative),
          wallS: round((performance.now() - started) / 1_000, 1),
          activeAtEnd: result.curriculum.current?.active ?? null,
          retiredAtEnd: result.curriculum.current?.retired ?? null,
          solvedAtEnd: result.solvedAtEnd,
        });
      } finally {
        await rig.close();
      }
    }
    const uniform = late.get("uniform") as Window;
    const adaptive = late.get("adaptive") as Window;
    const ratio =
      uniform.informativeFraction === 0 ? null : adaptive.informativeFraction / uniform.informativeFraction;
    const tokenRatio =
      adaptive.tokensPerInformative === 0
        ? null
        : uniform.tokensPerInformative / adaptive.tokensPerInformative;
    return {
      bench: "curriculum",
      description: bench.description,
      rows,
      summary: {
        lateInformativeVsUniform: ratio === null ? null : round(ratio, 2),
        lateTokensPerInfoGroupUniformVsAdaptive: tokenRatio === null ? null : round(tokenRatio, 2),
        target: describeTarget(LATE_INFORMATIVE_TARGET),
        met: ratio !== null && meetsTarget(LATE_INFORMATIVE_TARGET, ratio),
      },
      config: {
        ...config,
        samplings,
        histogram: results.get("adaptive")?.curriculum.current?.histogram ?? null,
      },
    };
  },
};

export default bench;
