// `npm run bench -- groups [--n 8] [--instances 10] [--base-dir /tmp]`: INIT of GRPO groups of the shipped SWE
// fixtures through the real swe handler and bubblewrap, with an INIT per member (independent) and
// with one INIT per group (the first member's sandbox runs it and stays that member's own once a
// pristine copy of its workspace is kept as the group's template; every other member gets a private
// copy). INIT seconds per trajectory = the mean over members of (member ready to RUN − the member's
// job start), the same definition for both arms; members started one at a time (the cost: the
// ratio, there it equals the group's wall time ÷ n) or all at once (a group's latency).
//
// The headline `forkInitRatio` is the DEFAULT configuration a deployment gets: the runtime's warm
// pool on `auto` (RAAS_SANDBOX_WARM_POOL unset). An auto pool starts nothing until a group forks and
// learns the group's size from the sandboxes its template serves; here one unmeasured warm-up group
// of n teaches it (`poolLearnedSize`), then each measured group starts from a refilled pool (as after
// any pause between groups) and the pool's refills run during the measurement, as they would in
// service. The unprefixed per-trajectory and member keys describe that configuration too.
// `forkInitRatioNoPool` (and `noPool*`) is the same without any pool: each member pays its own
// sandbox start (`sandboxStartSPerTrajectory`: n bare starts, the floor both arms pay there);
// `forkInitRatioAllAtOnce` is that with members started together; `forkInitRatioWarmPool` (and
// `warm*`) a fixed pool of n started sandboxes (RAAS_SANDBOX_WARM_POOL=n).
//
// The breakdown of the fork arm: the member that prepared the template (`…ForkFirstMemberS`: the
// group's INIT and the template's copy), the others (`…ForkOtherMembersS`), and from the runtime's
// `forked` events the copy and the wait for the template. The isolation check: member 0 (the one
// whose sandbox ran the INIT) appends to, chmods and deletes tracked files and adds one; every
// sibling's checkout stays clean and the template's tree (paths, modes, owners, contents) is unchanged.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatFormat, Cleanup, InferencePool, JobRecord, Sandbox, StageContext } from "@raas/engine";
import {
  type AgentInitOutput,
  createBundleDirRepoSource,
  createSweHandlerFactory,
  parseSweJsonl,
  type TSweInstance,
  type TSwePayload,
} from "@raas/handlers";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import type { TSandboxEvent } from "@raas/shared";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { cloneMode, fileSystemOf, treeDigest } from "./groups/tree-probes";
import { targetOf } from "./targets/bench-targets";
import { describeTarget, meetsTarget } from "./targets/target-verdict";

const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const SWE_DATA = fileURLToPath(new URL("../packages/handlers/data/swe/", import.meta.url));
const FORK_INIT_TARGET = targetOf("groups", "forkInitRatio");

function optionText(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

function option(args: string[], name: string, fallback: number): number {
  const text = optionText(args, name);
  return text ? Number(text) : fallback;
}

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("not used in INIT")) });

/** A StageContext for one member's INIT; `endJob` runs its job-end cleanups (sandbox, template hold). */
function memberContext(jobId: string, groupId: string, payload: TSwePayload) {
  const jobEnd: Cleanup[] = [];
  const ctx: StageContext<TSwePayload> = {
    job: { id: jobId, groupId } as unknown as JobRecord,
    payload,
    stage: "init",
    signal: new AbortController().signal,
    defer: () => undefined,
    deferToJobEnd: (cleanup) => jobEnd.push(cleanup),
    record: { turn: () => undefined, toolCall: () => undefined, sandboxEvent: () => undefined },
  };
  return {
    ctx,
    endJob: async () => {
      for (const cleanup of jobEnd.reverse()) await cleanup();
    },
  };
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function pooled<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

async function sh(sandbox: Sandbox, script: string): Promise<string> {
  const result = await sandbox.exec(["bash", "-c", script]);
  if (result.exitCode !== 0) throw new Error(`${script}: exit ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

interface GroupOutcome {
  /** The group's INIT wall time. */
  wallMs: number;
  /** Each member's INIT: its job start to ready to RUN, in member order. */
  memberMs: number[];
  /** Fork only: whether siblings and the template stayed untouched by member 0's writes. */
  isolated: boolean | null;
}

type Handler = ReturnType<ReturnType<typeof createSweHandlerFactory>>;

async function runGroup(input: {
  handler: Handler;
  runtime: BubblewrapRuntime;
  instance: TSweInstance;
  groupId: string;
  n: number;
  concurrency: number;
  checkIsolation: boolean;
}): Promise<GroupOutcome> {
  const { handler, instance, n } = input;
  const payload = handler.payloadSchema.parse({ instance });
  const members = Array.from({ length: n }, (_, k) =>
    memberContext(`${input.groupId}-${k}`, input.groupId, payload),
  );
  const memberMs: number[] = new Array(n).fill(0);
  const startedAt = performance.now();
  let inits: AgentInitOutput<{ repoDir: string }>[] = [];
  try {
    inits = (await pooled(members, input.concurrency, async (member) => {
      const jobStart = performance.now();
      const init = await handler.init(member.ctx);
      memberMs[members.indexOf(member)] = performance.now() - jobStart;
      return init;
    })) as typeof inits;
    const wallMs = performance.now() - startedAt;
    if (!input.checkIsolation) return { wallMs, memberMs, isolated: null };
    const template = input.runtime.heldTemplates[0] as unknown as { workspace: string } | undefined;
    if (!template) throw new Error("no template held during the fork group");
    const before = treeDigest(template.workspace);
    const dir = inits[0]!.setup.repoDir;
    const files = (await sh(inits[0]!.sandbox, `cd ${dir} && git ls-files | head -3`)).trim().split("\n");
    const [appendTo, remove, chmod] = [files[0]!, files[1] ?? files[0]!, files[2] ?? files[0]!];
    await sh(
      inits[0]!.sandbox,
      `cd ${dir} && echo '# member 0' >> '${appendTo}' && chmod 700 '${chmod}' && rm -f '${remove}' && echo new > member0.txt`,
    );
    const dirty = (await sh(inits[0]!.sandbox, `cd ${dir} && git status --porcelain`)).trim();
    const siblingsClean = await Promise.all(
      inits
        .slice(1)
        .map(async (init) => (await sh(init.sandbox, `cd ${dir} && git status --porcelain`)).trim() === ""),
    );
    return {
      wallMs,
      memberMs,
      isolated: dirty !== "" && siblingsClean.every(Boolean) && treeDigest(template.workspace) === before,
    };
  } finally {
    await Promise.all(members.map((member) => member.endJob()));
  }
}

/** Sums over a configuration's groups (ms), for its rows and summary. */
interface Totals {
  groups: number;
  startMs: number;
  independentMs: number;
  forkMs: number;
  /** Member 0 of each fork group (one at a time: the member that prepared the template). */
  forkFirstMs: number;
  forkOtherMs: number;
  copyMs: number;
  templateWaitMs: number;
  forkedMembers: number;
  /** Members (and templates) whose sandbox came from the warm pool / all that started one. */
  fromPool: number;
  sandboxes: number;
  isolationHeld: boolean;
}

interface ConfigResult {
  rows: BenchRow[];
  totals: Totals;
}

const emptyTotals = (): Totals => ({
  groups: 0,
  startMs: 0,
  independentMs: 0,
  forkMs: 0,
  forkFirstMs: 0,
  forkOtherMs: 0,
  copyMs: 0,
  templateWaitMs: 0,
  forkedMembers: 0,
  fromPool: 0,
  sandboxes: 0,
  isolationHeld: true,
});

function addTotals(into: Totals, from: Totals): void {
  for (const key of Object.keys(into) as (keyof Totals)[]) {
    if (key === "isolationHeld") into.isolationHeld &&= from.isolationHeld;
    else into[key] += from[key];
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Every instance's independent and fork group on one runtime, members started `concurrency` at a time. */
async function measureConfig(input: {
  label: string;
  runtime: BubblewrapRuntime;
  repoSource: ReturnType<typeof createBundleDirRepoSource>;
  instances: readonly TSweInstance[];
  n: number;
  concurrency: number;
  /** n bare sandbox starts per instance (only without a pool: a pool would serve them). */
  measureBareStarts: boolean;
}): Promise<ConfigResult> {
  const { runtime, n, concurrency } = input;
  const deps = {
    sandboxRuntime: runtime,
    inference: unused as InferencePool,
    chatFormat: unused as ChatFormat,
  };
  const factory = createSweHandlerFactory({ repoSource: input.repoSource });
  const independent = factory({ ...deps, defaults: { groupFork: false } });
  const forked = factory({ ...deps, defaults: { groupFork: { graceMs: 0 } } });
  const all = emptyTotals();
  const rows: BenchRow[] = [];
  let events: TSandboxEvent[] = [];
  const stopListening = runtime.onEvent((event) => events.push(event));
  try {
    for (const [index, instance] of input.instances.entries()) {
      const common = { runtime, instance, n, concurrency };
      // The floor neither way avoids without a pool: n bare sandbox starts (one execution server each).
      let startMs = 0;
      if (input.measureBareStarts) {
        const startedAt = performance.now();
        const bare = await pooled(Array.from({ length: n }), concurrency, () => runtime.create({}));
        startMs = performance.now() - startedAt;
        await Promise.all(bare.map((sandbox) => sandbox.close()));
      }
      // With a warm pool (deployments that keep sandboxes started ahead), each group starts from
      // a full pool; without one this is a no-op.
      await runtime.warmUp();
      events = [];
      const alone = await runGroup({
        ...common,
        handler: independent,
        groupId: `ind-${index}`,
        checkIsolation: false,
      });
      const aloneEvents = events;
      await runtime.warmUp();
      events = [];
      const fork = await runGroup({
        ...common,
        handler: forked,
        groupId: `fork-${index}`,
        checkIsolation: true,
      });
      const forkEvents = events;
      const forkedDetails = forkEvents
        .filter((event) => event.type === "forked")
        .map((event) => event.detail as { copyMs: number; waitedForTemplateMs: number });
      const pooledCount = (list: TSandboxEvent[]) =>
        list.filter((event) => event.type === "assigned" && event.detail?.fromPool === true).length;
      const totals: Totals = {
        groups: 1,
        startMs,
        independentMs: sum(alone.memberMs),
        forkMs: sum(fork.memberMs),
        forkFirstMs: fork.memberMs[0] ?? 0,
        forkOtherMs: sum(fork.memberMs.slice(1)),
        copyMs: sum(forkedDetails.map((detail) => detail.copyMs)),
        templateWaitMs: sum(forkedDetails.map((detail) => detail.waitedForTemplateMs)),
        forkedMembers: forkedDetails.length,
        fromPool: pooledCount(aloneEvents) + pooledCount(forkEvents),
        // n members each way (the fork's first member runs in the template's sandbox).
        sandboxes: 2 * n,
        isolationHeld: fork.isolated === true,
      };
      addTotals(all, totals);
      rows.push(row(`${input.label} ${instance.instance_id}`, n, totals));
      console.error(`[groups] ${input.label} ${index + 1}/${input.instances.length} ${instance.instance_id}`);
    }
  } finally {
    stopListening();
  }
  rows.push(row(`${input.label} all`, n, all));
  return { rows, totals: all };
}

/** Seconds per trajectory (or per forked member) of a sum over `count` items. */
const perItem = (ms: number, count: number) => round(ms / Math.max(1, count) / 1_000, 3);

function row(name: string, n: number, totals: Totals): BenchRow {
  const { groups } = totals;
  return {
    name,
    n,
    sandboxStartSPerTrajectory: perItem(totals.startMs, n * groups),
    independentInitSPerTrajectory: perItem(totals.independentMs, n * groups),
    forkInitSPerTrajectory: perItem(totals.forkMs, n * groups),
    ratio: round(totals.forkMs / totals.independentMs, 3),
    forkFirstMemberS: perItem(totals.forkFirstMs, groups),
    forkOtherMembersS: perItem(totals.forkOtherMs, (n - 1) * groups),
    copyS: perItem(totals.copyMs, totals.forkedMembers),
    templateWaitS: perItem(totals.templateWaitMs, totals.forkedMembers),
    fromPool: `${totals.fromPool}/${totals.sandboxes}`,
    isolated: totals.isolationHeld,
  };
}

const bench: Bench = {
  name: "groups",
  description:
    "INIT per trajectory (job start to ready to RUN, mean over members) of SWE fixture groups (n members) on bubblewrap: an INIT per member vs one INIT per group with a private copy per member; the default configuration (auto warm pool) one at a time, no pool one at a time (cost) and all at once (a group's latency), a fixed warm pool of n; isolation of the copies",
  async run(args): Promise<BenchReport> {
    const n = option(args, "n", 8);
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("the groups bench needs bubblewrap: apt-get install -y bubblewrap");
    const instances = parseSweJsonl(
      readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8"),
      "instances.jsonl",
    ).slice(0, option(args, "instances", 10));
    const repoSource = createBundleDirRepoSource({ dir: join(SWE_DATA, "bundles") });
    // Sandboxes and templates live here (`--base-dir`, default the OS temp dir): copies and the
    // checkouts' writes are metadata-heavy, so its file system shows in both arms.
    const baseDir = mkdtempSync(join(optionText(args, "base-dir") ?? tmpdir(), "raas-bench-groups-"));
    const mode = cloneMode(baseDir);
    const baseDirFileSystem = fileSystemOf(baseDir);
    const common = { bwrapPath, baseDir, warn: () => {} };
    // What composeSandboxRuntime builds when RAAS_SANDBOX_WARM_POOL is unset.
    const defaultRuntime = new BubblewrapRuntime({ ...common, warmPoolSize: "auto" });
    const runtime = new BubblewrapRuntime({ ...common, warmPoolSize: 0 });
    const warmRuntime = new BubblewrapRuntime({ ...common, warmPoolSize: n });
    const results: ConfigResult[] = [];
    let poolLearnedSize = 0;
    const loadBefore = loadavg();
    try {
      // One unmeasured sandbox first: the server bundle is built once per base directory.
      await (await runtime.create({})).close();
      poolLearnedSize = await warmUpAutoPool(defaultRuntime, repoSource, instances[0]!, n);
      const measure = (label: string, on: BubblewrapRuntime, concurrency: number) =>
        measureConfig({
          label,
          runtime: on,
          repoSource,
          instances,
          n,
          concurrency,
          measureBareStarts: on === runtime,
        });
      results.push(await measure("default (auto pool), one at a time", defaultRuntime, 1));
      results.push(await measure("no pool, one at a time", runtime, 1));
      results.push(await measure("no pool, all at once", runtime, n));
      results.push(await measure("warm pool, one at a time", warmRuntime, 1));
    } finally {
      await defaultRuntime.closeAll();
      await runtime.closeAll();
      await warmRuntime.closeAll();
      await repoSource.close();
      rmSync(baseDir, { recursive: true, force: true });
    }
    const [auto, serial, together, warm] = results.map((result) => result.totals) as [
      Totals,
      Totals,
      Totals,
      Totals,
    ];
    const ratio = (totals: Totals) => round(totals.forkMs / totals.independentMs, 3);
    const perTrajectory = (ms: number) => perItem(ms, n * instances.length);
    const perFirst = (totals: Totals) => perItem(totals.forkFirstMs, instances.length);
    const perOther = (totals: Totals) => perItem(totals.forkOtherMs, (n - 1) * instances.length);
    const forkInitRatio = ratio(auto);
    const forkInitRatioWarmPool = ratio(warm);
    return {
      bench: "groups",
      description: bench.description,
      rows: results.flatMap((result) => result.rows),
      summary: {
        // The default configuration (auto warm pool, after one warm-up group taught it n).
        forkInitRatio,
        target: describeTarget(FORK_INIT_TARGET),
        targetMet: meetsTarget(FORK_INIT_TARGET, forkInitRatio),
        configuration:
          "default: RAAS_SANDBOX_WARM_POOL unset (auto), learned from one unmeasured warm-up group",
        poolLearnedSize,
        forkInitRatioNoPool: ratio(serial),
        forkInitRatioAllAtOnce: ratio(together),
        // A fixed pool of n (RAAS_SANDBOX_WARM_POOL=n): the INIT work itself, fork vs independent.
        forkInitRatioWarmPool,
        targetMetWarmPool: meetsTarget(FORK_INIT_TARGET, forkInitRatioWarmPool),
        isolationHeld: [auto, serial, together, warm].every((totals) => totals.isolationHeld),
        cloneMode: mode,
        baseDirFileSystem,
        sandboxStartSPerTrajectory: perTrajectory(serial.startMs),
        independentInitSPerTrajectory: perTrajectory(auto.independentMs),
        forkInitSPerTrajectory: perTrajectory(auto.forkMs),
        forkFirstMemberS: perFirst(auto),
        forkOtherMembersS: perOther(auto),
        copyS: perItem(auto.copyMs, auto.forkedMembers),
        fromPool: `${auto.fromPool}/${auto.sandboxes}`,
        noPoolIndependentInitSPerTrajectory: perTrajectory(serial.independentMs),
        noPoolForkInitSPerTrajectory: perTrajectory(serial.forkMs),
        noPoolForkFirstMemberS: perFirst(serial),
        noPoolForkOtherMembersS: perOther(serial),
        warmIndependentInitSPerTrajectory: perTrajectory(warm.independentMs),
        warmForkInitSPerTrajectory: perTrajectory(warm.forkMs),
        warmForkFirstMemberS: perFirst(warm),
        warmForkOtherMembersS: perOther(warm),
        warmCopyS: perItem(warm.copyMs, warm.forkedMembers),
        loadAverage1mBefore: round(loadBefore[0] ?? 0, 1),
        loadAverage1mAfter: round(loadavg()[0] ?? 0, 1),
      },
      config: {
        n,
        instances: instances.length,
        runtime: "bubblewrap",
        concurrencies: [1, n],
        warmPoolSize: n,
        defaultWarmPool: "auto",
        warmUpGroups: 1,
      },
    };
  },
};

/**
 * One unmeasured fork group of n on the default runtime: its template serves n sandboxes, which
 * is what an auto pool learns its size from. Resolves with the size it learned.
 */
async function warmUpAutoPool(
  runtime: BubblewrapRuntime,
  repoSource: ReturnType<typeof createBundleDirRepoSource>,
  instance: TSweInstance,
  n: number,
): Promise<number> {
  const handler = createSweHandlerFactory({ repoSource })({
    sandboxRuntime: runtime,
    inference: unused as InferencePool,
    chatFormat: unused as ChatFormat,
    defaults: { groupFork: { graceMs: 0 } },
  });
  await runGroup({
    handler,
    runtime,
    instance,
    groupId: "warm-up",
    n,
    concurrency: 1,
    checkIsolation: false,
  });
  const learned = runtime.warmPool?.targetSize ?? 0;
  if (learned !== n) throw new Error(`the auto warm pool learned ${learned} from a group of ${n}`);
  return learned;
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}

export default bench;
