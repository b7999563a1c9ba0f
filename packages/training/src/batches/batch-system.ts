import { type Clock, type EngineLogger, systemClock } from "@raas/engine";
import {
  isTerminalStatus,
  newId,
  requestFailure,
  type TCreateRunRequest,
  type TCreateStepRequest,
  type TCurriculumStats,
  type TGroup,
  type TGroupMember,
  type TJob,
  type TRun,
  type TStep,
  type TStepTask,
  ZCreateRunRequest,
  ZCreateStepRequest,
} from "@raas/shared";
import { CurriculumTracker } from "../curriculum/curriculum-tracker";
import { MemoryCurriculumStore } from "../memory/memory-curriculum-store";
import type { BatchStore, GroupRecord, RunRecord, StepRecord } from "../ports/batch-store.port";
import { changedGroups, parse, resolveTasks, snapshot } from "./batch-support";
import type { BatchEngine, BatchSystemOptions, TaskCatalog } from "./batch-system.types";
import { toGroupView, toRunView, toStepView } from "./batch-views";
import { carryIn } from "./carry-over";
import { countJobFailure } from "./failure-budget";
import { GroupDelivery, type NextGroupsResult } from "./group-delivery";
import { readJobEnd } from "./job-end-reader";
import { memberSubmitRequest } from "./member-request";
import { newRunRecord, newStepRecord } from "./new-records";
import { membersToDispatch, pilotSize } from "./pilot-dispatch";
import { RunChains } from "./run-chains";
import {
  advance,
  applyJobEnd,
  type BatchAction,
  closeStep,
  type ProgressContext,
  type StepState,
} from "./step-progress";
import { stepTaskDrawer } from "./step-task-drawer";
import type { TraceCertifier } from "./trace-certification";

/**
 * Training runs, steps and groups over the engine's public operations and the batch store:
 * keeps enough groups of a step in flight, decides each group as early as its rewards allow,
 * hands complete groups out in completion order, refills from the task source, cancels what
 * became redundant once the step has its groups and carries finished samples of undecided
 * groups into the run's next step. State lives in the store (a restarted system goes on from it);
 * work on one run is serialised.
 */
export class BatchSystem {
  readonly #engine: BatchEngine;
  readonly #store: BatchStore;
  readonly #catalog: TaskCatalog | undefined;
  readonly #clock: Clock;
  readonly #logger: EngineLogger | undefined;
  readonly #weightVersion: (policyId: string) => number | null;
  readonly #reconcileEveryMs: number;
  /** Steps being worked on, by id (running ones, and closed ones while their cancels land). */
  readonly #states = new Map<string, StepState>();
  readonly #chains = new RunChains();
  readonly #delivery: GroupDelivery;
  readonly #curriculum: CurriculumTracker;
  readonly #traceCertifier: TraceCertifier | undefined;
  readonly #archivesTrajectories: boolean;
  #unsubscribe: (() => void) | null = null;
  #cancelSweep: (() => void) | null = null;

  constructor(options: BatchSystemOptions) {
    this.#engine = options.engine;
    this.#store = options.store;
    this.#catalog = options.catalog;
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger;
    this.#weightVersion = options.weightVersion ?? (() => null);
    this.#reconcileEveryMs = options.reconcileEveryMs ?? 5_000;
    this.#traceCertifier = options.traceCertifier;
    this.#archivesTrajectories = options.archivesTrajectories ?? false;
    this.#delivery = new GroupDelivery({
      engine: this.#engine,
      clock: this.#clock,
      loadStep: (id) => this.#loadStepView(id),
      loadGroups: (id) => this.#loadGroups(id),
    });
    this.#curriculum = new CurriculumTracker({
      store: options.curriculum ?? new MemoryCurriculumStore(),
      clock: this.#clock,
      tasksOf: (step) => resolveTasks(this.#catalog, step.request.tasks).catch(() => null),
    });
  }

  /** Subscribes to job events and goes on with every step the store says is running. */
  async start(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = this.#engine.subscribe((event) => this.#onJob(event.job));
    for (const step of await this.#store.listRunningSteps()) {
      await this.#withRun(step.runId, async () => {
        const state = await this.#stateOf(step.id);
        if (state) await this.#reconcile(state);
      });
    }
    this.#scheduleSweep();
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#cancelSweep?.();
    this.#cancelSweep = null;
    await this.#chains.settled();
    this.#delivery.close();
  }

  /** `ownerId`: fingerprint of the creating token (writes to the run need it or admin); null: anyone. */
  async createRun(
    request: TCreateRunRequest,
    options: { ownerId?: string | null } = {},
  ): Promise<{ run: TRun; created: boolean }> {
    const input = parse(ZCreateRunRequest, request);
    if (input.retention !== undefined && !this.#archivesTrajectories)
      throw requestFailure(
        "VALIDATION_FAILED",
        "retention: this server has no trajectory archive (it keeps trajectories in memory); leave retention out or run the server with the database store",
      );
    if (input.runKey !== undefined) {
      const known = await this.#store.findRunByKey(input.runKey);
      if (known) return { run: toRunView(known), created: false };
    }
    const run = newRunRecord(input, options.ownerId ?? null, this.#clock.now());
    await this.#store.insertRun(run);
    return { run: toRunView(run), created: true };
  }

  async getRun(runId: string): Promise<TRun> {
    return toRunView(await this.#requireRun(runId));
  }

  async listRuns(limit: number): Promise<TRun[]> {
    return (await this.#store.listRuns(limit)).map(toRunView);
  }

  /** Marks a run finished; its running steps are cancelled. */
  async finishRun(runId: string): Promise<TRun> {
    await this.#requireRun(runId);
    for (const step of await this.#store.listSteps(runId))
      if (step.status === "running") await this.cancelStep(step.id);
    return this.#withRun(runId, async () => {
      const run = await this.#requireRun(runId);
      // Groups carried whole still run jobs no step will take now.
      for (const group of await this.#store.listCarriedGroups(runId)) {
        for (const member of group.members) {
          if (member.status !== "running" || member.jobId === "") continue;
          await this.#engine.cancel({ jobId: member.jobId }).catch((e) => this.#warn(e, group.stepId));
        }
      }
      run.status = "finished";
      run.updatedAtMs = this.#clock.now();
      await this.#store.saveRun(run);
      this.#curriculum.forgetRun(run.id);
      return toRunView(run);
    });
  }

  /**
   * Creates a step (idempotent by `stepKey`): carried groups of the run's earlier steps first,
   * then groups drawn from the task source. The first submits validate the tasks: a bad payload
   * is a 400 and nothing is stored.
   */
  async createStep(request: TCreateStepRequest): Promise<{ step: TStep; created: boolean }> {
    const input = parse(ZCreateStepRequest, request);
    if (input.requireCertifiedTraces && !this.#traceCertifier)
      throw requestFailure(
        "VALIDATION_FAILED",
        "requireCertifiedTraces: this service reads no trace certificates",
      );
    const tasks = await resolveTasks(this.#catalog, input.tasks);
    return this.#withRun(input.runId, async () => {
      const run = await this.#requireRun(input.runId);
      if (run.status !== "active")
        throw requestFailure("CONFLICT", `run ${run.id} is finished; create a new run`);
      if (input.stepKey !== undefined) {
        const known = await this.#store.findStepByKey(run.id, input.stepKey);
        if (known) return { step: toStepView(known), created: false };
      }
      const now = this.#clock.now();
      const step = newStepRecord(run, input, now);
      const state: StepState = { run, step, groups: [] };
      await this.#curriculum.prepare(state, { refresh: true });
      const context = this.#context(state, tasks);
      const carried = await this.#store.listCarriedGroups(run.id);
      const actions = [...carryIn(state, carried, context), ...advance(state, context)];
      // Validate by submitting the first wave before anything is stored: a bad task is a 400.
      // Known before the submit, so the first wave's job events queue behind this call.
      this.#states.set(step.id, state);
      try {
        await this.#submit(state, actions);
      } catch (error) {
        this.#states.delete(step.id);
        throw error;
      }
      run.stepCount += 1;
      run.updatedAtMs = now;
      await this.#store.insertStep(step);
      await this.#store.insertGroups(state.groups);
      for (const old of carried) {
        if (old.carriedIntoGroupId === null && old.expiredInStepId === null) continue;
        await this.#store.saveGroup(old);
        this.#replaceCachedGroup(old);
      }
      await this.#store.saveRun(run);
      await this.#curriculum.observe(state);
      await this.#execute(
        state,
        actions.filter((a) => a.type === "cancel"),
      );
      this.#delivery.notify(step.id);
      return { step: toStepView(step), created: true };
    });
  }

  /** Per-task pass rates of a run: tasks active/retired now and the histogram at each step's close. */
  async curriculumStats(runId: string): Promise<TCurriculumStats> {
    await this.#requireRun(runId);
    return this.#curriculum.stats(runId, await this.#store.listSteps(runId));
  }

  async getStep(stepId: string): Promise<TStep> {
    return toStepView(await this.#requireStep(stepId));
  }

  async listSteps(runId: string): Promise<TStep[]> {
    await this.#requireRun(runId);
    return (await this.#store.listSteps(runId)).map(toStepView);
  }

  async listGroups(stepId: string): Promise<TGroup[]> {
    await this.#requireStep(stepId);
    return (await this.#loadGroups(stepId)).map(toGroupView);
  }

  /** Long-poll: handed-out groups after `afterSeq` (completion order), waiting up to `timeoutMs` for one. */
  async nextGroups(
    stepId: string,
    options: { afterSeq: number; limit: number; timeoutMs: number; signal?: AbortSignal },
  ): Promise<NextGroupsResult> {
    await this.#requireStep(stepId);
    return this.#delivery.next(stepId, options);
  }

  /** Cancels a running step: its jobs are cancelled, finished samples kept for the next step. */
  async cancelStep(stepId: string): Promise<TStep> {
    const known = await this.#requireStep(stepId);
    return this.#withRun(known.runId, async () => {
      const state = await this.#stateOf(stepId);
      if (!state) return toStepView(await this.#requireStep(stepId));
      if (state.step.status === "running") {
        const actions = closeStep(state, "cancelled", this.#context(state, null));
        await this.#persist(state, new Set(state.groups.map((g) => g.id)));
        await this.#execute(state, actions);
        this.#delivery.notify(stepId);
      }
      return toStepView(state.step);
    });
  }

  #onJob(job: TJob): void {
    if (!isTerminalStatus(job.status) || job.batchId === null || !job.batchId.startsWith("stp_")) return;
    const stepId = job.batchId;
    const runId = this.#states.get(stepId)?.run.id;
    const work = async () => {
      const state = await this.#stateOf(stepId);
      if (state) await this.#applyEnd(state, job);
    };
    if (runId) void this.#withRun(runId, work).catch((error) => this.#warn(error, stepId));
    else
      void this.#store
        .getStep(stepId)
        .then((step) => (step ? this.#withRun(step.runId, work) : undefined))
        .catch((error) => this.#warn(error, stepId));
  }

  async #applyEnd(state: StepState, job: TJob): Promise<void> {
    // A running job of a group carried whole into a later step ends there.
    const owner = state.groups.find((g) => g.members.some((m) => m.jobId === job.id));
    if (owner?.carriedIntoGroupId) {
      const next = await this.#store.getGroup(owner.carriedIntoGroupId);
      const target = next ? await this.#stateOf(next.stepId) : null;
      const takenOver = target?.groups.some((g) => g.members.some((m) => m.jobId === job.id));
      if (target && target !== state && takenOver) return this.#applyEnd(target, job);
    }
    const end = await readJobEnd(this.#engine, job);
    if (state.step.request.requireCertifiedTraces && end.status !== "cancelled" && this.#traceCertifier)
      end.tracesCertified = await this.#traceCertifier.isCertified(job.id);
    const tasks = await this.#tasksOf(state.step);
    await this.#curriculum.prepare(state);
    const before = snapshot(state.groups);
    const actions = applyJobEnd(state, end, this.#context(state, tasks));
    await this.#persist(state, changedGroups(state.groups, before));
    await this.#execute(state, actions);
    this.#delivery.notify(state.step.id);
  }

  /** Submits pending members (persisted first, so a restart resubmits them by job key) and cancels. */
  async #execute(state: StepState, actions: readonly BatchAction[]): Promise<void> {
    const submits = actions.filter((a) => a.type === "submit");
    if (submits.length > 0) {
      try {
        await this.#submit(state, submits);
      } catch (error) {
        this.#warn(error, state.step.id);
        for (const { member } of submits) {
          if (member.jobId !== "") continue;
          member.status = "failed";
          countJobFailure(state.step.stats, "submit", String(error));
        }
        const tasks = await this.#tasksOf(state.step);
        await this.#curriculum.prepare(state);
        const more = advance(state, this.#context(state, tasks));
        await this.#persist(state, new Set(submits.map((s) => s.group.id)));
        await this.#execute(state, more);
        return;
      }
      await this.#persist(state, new Set(submits.map((s) => s.group.id)));
    }
    for (const action of actions) {
      if (action.type !== "cancel") continue;
      for (const jobId of action.jobIds)
        await this.#engine.cancel({ jobId }).catch((e) => this.#warn(e, state.step.id));
    }
  }

  async #submit(state: StepState, actions: readonly BatchAction[]): Promise<void> {
    const members = new Set<TGroupMember>();
    // A member is submitted once, however many actions asked for it.
    const submits = actions.flatMap((a) =>
      a.type === "submit" && a.member.jobId === "" && !members.has(a.member) && members.add(a.member)
        ? [a]
        : [],
    );
    if (submits.length === 0) return;
    // A step's jobs are its run's: the run's owner (and an admin) may cancel them, no one else.
    const results = await this.#engine.submitJobs(
      submits.map(({ group, member }) => memberSubmitRequest(state.step, group, member, state.run)),
      { ownerId: state.run.ownerId },
    );
    state.step.stats.jobsSubmitted += submits.length;
    const finished: TJob[] = [];
    submits.forEach(({ member }, i) => {
      const job = (results[i] as { job: TJob }).job;
      member.jobId = job.id;
      if (isTerminalStatus(job.status)) finished.push(job);
    });
    // A resubmit after a restart can return a job that already ended: apply its end now.
    for (const job of finished) queueMicrotask(() => this.#onJob(job));
  }

  async #persist(state: StepState, groupIds: ReadonlySet<string>): Promise<void> {
    await this.#store.saveStep(state.step);
    for (const group of state.groups) {
      if (!groupIds.has(group.id)) continue;
      if (group.version === 0 && !(await this.#store.getGroup(group.id)))
        await this.#store.insertGroups([group]);
      else await this.#store.saveGroup(group);
    }
    if (state.step.request.tasks.type === "dataset") {
      state.run.taskCursors[state.step.request.tasks.dataset] = state.step.nextTaskIndex;
      await this.#store.saveRun(state.run);
    }
    await this.#curriculum.observe(state);
  }

  /** After a restart or a lost event: resubmits pending members and applies ends not seen yet. */
  async #reconcile(state: StepState): Promise<void> {
    const pilot = pilotSize(state.step.request);
    const pending = state.groups.flatMap((group) =>
      group.state === "running"
        ? membersToDispatch(group.members, pilot, false).map((member) => ({
            type: "submit" as const,
            group,
            member,
          }))
        : [],
    );
    if (pending.length > 0) await this.#execute(state, pending);
    for (const group of state.groups) {
      if (group.state !== "running") continue;
      for (const member of group.members) {
        if (member.status !== "running" || member.jobId === "") continue;
        const job = await this.#engine.getJob(member.jobId).catch(() => null);
        if (job && isTerminalStatus(job.status)) await this.#applyEnd(state, job);
      }
    }
  }

  #scheduleSweep(): void {
    this.#cancelSweep = this.#clock.setTimer(() => {
      const running = [...this.#states.values()].filter((s) => s.step.status === "running");
      for (const [id, state] of this.#states)
        if (state.step.status !== "running" && this.#clock.now() - (state.step.closedAtMs ?? 0) > 60_000)
          this.#states.delete(id);
      void Promise.all(running.map((s) => this.#withRun(s.run.id, () => this.#reconcile(s))))
        .catch((error) => this.#warn(error, null))
        .finally(() => {
          if (this.#unsubscribe) this.#scheduleSweep();
        });
    }, this.#reconcileEveryMs);
  }

  #context(state: StepState, tasks: readonly TStepTask[] | null): ProgressContext {
    return {
      nowMs: this.#clock.now(),
      weightVersion: this.#weightVersion(state.run.policyId),
      newGroupId: () => newId("grp", this.#clock.now()),
      drawTask: stepTaskDrawer(state, tasks, this.#curriculum),
    };
  }

  #tasksOf(step: StepRecord): Promise<readonly TStepTask[] | null> {
    return step.status === "running"
      ? resolveTasks(this.#catalog, step.request.tasks).catch(() => null)
      : Promise.resolve(null);
  }

  async #stateOf(stepId: string): Promise<StepState | null> {
    const known = this.#states.get(stepId);
    if (known) return known;
    const step = await this.#store.getStep(stepId);
    if (!step) return null;
    // Steps of one run share its record: the dataset cursor and step count have one writer.
    const run =
      [...this.#states.values()].find((s) => s.run.id === step.runId)?.run ??
      (await this.#store.getRun(step.runId));
    if (!run) return null;
    const state: StepState = { run, step, groups: await this.#store.listGroups(stepId) };
    this.#curriculum.attach(state);
    this.#states.set(stepId, state);
    return state;
  }

  async #loadStepView(stepId: string): Promise<TStep | null> {
    const step = this.#states.get(stepId)?.step ?? (await this.#store.getStep(stepId));
    return step ? toStepView(step) : null;
  }

  /**
   * Puts a group saved outside its step's state (a carried group taken or let go by a later step)
   * into that state when it is still held (a step closed less than a minute ago): a job end read
   * there must see where the group went.
   */
  #replaceCachedGroup(group: GroupRecord): void {
    const groups = this.#states.get(group.stepId)?.groups;
    const index = groups?.findIndex((g) => g.id === group.id) ?? -1;
    if (groups && index >= 0) groups[index] = group;
  }

  async #loadGroups(stepId: string): Promise<GroupRecord[]> {
    return this.#states.get(stepId)?.groups ?? this.#store.listGroups(stepId);
  }

  async #requireRun(runId: string): Promise<RunRecord> {
    const run =
      [...this.#states.values()].find((s) => s.run.id === runId)?.run ?? (await this.#store.getRun(runId));
    if (!run) throw requestFailure("NOT_FOUND", `no run with id "${runId}"`, { details: { runId } });
    return run;
  }

  async #requireStep(stepId: string): Promise<StepRecord> {
    const step = this.#states.get(stepId)?.step ?? (await this.#store.getStep(stepId));
    if (!step) throw requestFailure("NOT_FOUND", `no step with id "${stepId}"`, { details: { stepId } });
    return step;
  }

  #withRun<T>(runId: string, work: () => Promise<T>): Promise<T> {
    return this.#chains.run(runId, work);
  }

  #warn(error: unknown, stepId: string | null): void {
    this.#logger?.warn({ stepId, err: String(error) }, "batch system: a step could not move on");
  }
}
