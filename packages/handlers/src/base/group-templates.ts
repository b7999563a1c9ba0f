import type { PreparedSandboxTemplate, SandboxTemplate } from "@raas/engine";
import { templateFailureAction } from "./template-failure";

/** How long a group's template is kept. */
export interface GroupTemplateOptions {
  /**
   * How long a template stays once no unfinished member holds it (the group is done), for a
   * member's retry or a member queued late. Default 30_000 ms.
   */
  graceMs?: number;
  /** A template is never kept longer than this after it was prepared, whatever its members do. Default 1_800_000 ms. */
  maxAgeMs?: number;
  /** Preparations one member takes part in before an infrastructure failure is its own. Default 2. */
  maxPrepareAttempts?: number;
}

/** A member's hold on its group's template; `release` when the member's job ends (idempotent). */
export interface TemplateLease<S> {
  template: SandboxTemplate;
  /** What the group's INIT returned (the setup output every member shares). */
  value: S;
  release(): void;
}

type Prepare<S> = (signal: AbortSignal) => Promise<PreparedSandboxTemplate<S>>;

interface Entry<S> {
  readonly key: string;
  readonly outcome: Promise<PreparedSandboxTemplate<S>>;
  readonly controller: AbortController;
  settled?: { ok: true; prepared: PreparedSandboxTemplate<S> } | { ok: false; error: unknown };
  /** Members waiting for the preparation. */
  waiting: number;
  /** Members holding the prepared template (until their job ends). */
  holders: number;
  /** No longer handed out (expired, failed or evicted); removed once nobody holds it. */
  isDetached: boolean;
  graceTimer?: ReturnType<typeof setTimeout>;
  ageTimer?: ReturnType<typeof setTimeout>;
}

const DEFAULTS: Required<GroupTemplateOptions> = {
  graceMs: 30_000,
  maxAgeMs: 1_800_000,
  maxPrepareAttempts: 2,
};

/**
 * The templates of the groups running in this process, keyed by group (and what the INIT
 * depends on): the first member to arrive prepares the template, the others wait for it; a
 * template lives while an unfinished member holds it, then `graceMs` more, and at most
 * `maxAgeMs`. A preparation nobody waits for any more is aborted. See `templateFailureAction`
 * for what a failed preparation does to the group.
 */
export class GroupTemplates<S> {
  readonly #options: Required<GroupTemplateOptions>;
  readonly #entries = new Map<string, Entry<S>>();

  constructor(options: GroupTemplateOptions = {}) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Keys with a template being prepared or kept (for tests and health reports). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The group's template: prepared by `prepare` if nobody has (or is preparing) it, else the
   * one prepared or being prepared. Rejects with `signal`'s reason when the member is aborted,
   * with the shared failure of a task that cannot be prepared, or with an infrastructure failure
   * after `maxPrepareAttempts` preparations failed.
   */
  async acquire(key: string, signal: AbortSignal, prepare: Prepare<S>): Promise<TemplateLease<S>> {
    for (let attempt = 1; ; attempt += 1) {
      signal.throwIfAborted();
      const entry = this.#entries.get(key) ?? this.#start(key, prepare);
      try {
        const prepared = await this.#wait(entry, signal);
        return this.#lease(entry, prepared);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (templateFailureAction(error) === "share" || attempt >= this.#options.maxPrepareAttempts)
          throw error;
      }
    }
  }

  /** Removes every template and aborts every preparation (shutdown). */
  async clear(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(
      entries.map(async (entry) => {
        clearTimeout(entry.graceTimer);
        clearTimeout(entry.ageTimer);
        entry.isDetached = true;
        entry.controller.abort(new Error("group templates cleared"));
        await entry.outcome.then(
          (prepared) => prepared.template.remove(),
          () => undefined,
        );
      }),
    );
  }

  #start(key: string, prepare: Prepare<S>): Entry<S> {
    const controller = new AbortController();
    const outcome = (async () => prepare(controller.signal))();
    const entry: Entry<S> = { key, outcome, controller, waiting: 0, holders: 0, isDetached: false };
    this.#entries.set(key, entry);
    outcome.then(
      (prepared) => {
        entry.settled = { ok: true, prepared };
        if (entry.isDetached) {
          if (entry.holders === 0) void prepared.template.remove();
          return;
        }
        entry.ageTimer = unrefTimer(() => this.#detach(entry), this.#options.maxAgeMs);
        if (entry.holders === 0 && entry.waiting === 0) this.#startGrace(entry);
      },
      (error: unknown) => {
        entry.settled = { ok: false, error };
        if (templateFailureAction(error) === "share" && !controller.signal.aborted) {
          // Members arriving within the grace period meet the same failure without an INIT.
          this.#startGrace(entry);
        } else {
          this.#detach(entry);
        }
      },
    );
    return entry;
  }

  /** Waits for the entry's preparation, or for `signal`; the last waiter to leave aborts it. */
  async #wait(entry: Entry<S>, signal: AbortSignal): Promise<PreparedSandboxTemplate<S>> {
    if (entry.settled) {
      if (entry.settled.ok) return entry.settled.prepared;
      throw entry.settled.error;
    }
    entry.waiting += 1;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        entry.outcome,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(signal.reason);
          signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
      entry.waiting -= 1;
      if (entry.waiting === 0 && entry.holders === 0 && !entry.settled) {
        this.#detach(entry);
        entry.controller.abort(new Error("no member waits for this template any more"));
      }
    }
  }

  #lease(entry: Entry<S>, prepared: PreparedSandboxTemplate<S>): TemplateLease<S> {
    entry.holders += 1;
    clearTimeout(entry.graceTimer);
    entry.graceTimer = undefined;
    let isReleased = false;
    return {
      template: prepared.template,
      value: prepared.value,
      release: () => {
        if (isReleased) return;
        isReleased = true;
        entry.holders -= 1;
        if (entry.holders > 0 || entry.waiting > 0) return;
        if (entry.isDetached) void prepared.template.remove();
        else this.#startGrace(entry);
      },
    };
  }

  #startGrace(entry: Entry<S>): void {
    clearTimeout(entry.graceTimer);
    entry.graceTimer = unrefTimer(() => this.#detach(entry), this.#options.graceMs);
  }

  /** Hands the entry out no more; removes its template now if nobody holds it, else at the last release. */
  #detach(entry: Entry<S>): void {
    clearTimeout(entry.graceTimer);
    clearTimeout(entry.ageTimer);
    if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key);
    if (entry.isDetached) return;
    entry.isDetached = true;
    if (entry.settled?.ok && entry.holders === 0) void entry.settled.prepared.template.remove();
  }
}

function unrefTimer(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(callback, ms);
  timer.unref?.();
  return timer;
}
