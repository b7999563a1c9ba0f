import type { TSandboxState } from "@raas/shared";
import type {
  Sandbox,
  SandboxEventListener,
  SandboxExecResult,
  SandboxRuntime,
  SandboxSpec,
  ToolResult,
} from "../src/ports/sandbox-runtime.port";
import { whenAborted } from "../src/util/abort";

/** A promise a test resolves by hand: the points where a race is held still. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A sandbox that only records whether it was closed. */
export class FakeSandbox implements Sandbox {
  readonly id: string;
  readonly jobId: string | null;
  #closes = 0;

  constructor(id: string, jobId: string | null) {
    this.id = id;
    this.jobId = jobId;
  }

  get state(): TSandboxState {
    return this.#closes > 0 ? "closed" : "ready";
  }

  get isClosed(): boolean {
    return this.#closes > 0;
  }

  async close(): Promise<void> {
    this.#closes += 1;
  }

  runTool(): Promise<ToolResult> {
    return Promise.reject(new Error("the fake sandbox runs no tools"));
  }

  exec(): Promise<SandboxExecResult> {
    return Promise.reject(new Error("the fake sandbox runs no commands"));
  }

  readFile(): Promise<Uint8Array> {
    return Promise.reject(new Error("the fake sandbox has no files"));
  }

  writeFile(): Promise<void> {
    return Promise.reject(new Error("the fake sandbox has no files"));
  }
}

/**
 * A runtime whose starts a test holds still: `holdCreates()` makes every `create` wait for the
 * test to let it finish (`entered` resolves once a create is under way), so a cancel can land at
 * a chosen moment. `honoursAbort` decides what an abort during a start does: false, the start
 * completes anyway and returns a live sandbox (as a runtime that looks at its signal only at some
 * moments does); true, the runtime closes what it started and rejects with the signal's reason.
 */
export class FakeSandboxRuntime implements SandboxRuntime {
  readonly name = "fake";
  readonly sandboxes: FakeSandbox[] = [];
  honoursAbort: boolean;
  #hold: { entered: Deferred; release: Deferred } | null = null;
  #seq = 0;

  constructor(options: { honoursAbort?: boolean } = {}) {
    this.honoursAbort = options.honoursAbort ?? false;
  }

  /** From now on each start waits for `release`; `entered` resolves when one is under way. */
  holdCreates(): { entered: Promise<void>; release: () => void } {
    const hold = { entered: deferred(), release: deferred() };
    this.#hold = hold;
    return { entered: hold.entered.promise, release: () => hold.release.resolve() };
  }

  async create(spec: SandboxSpec, signal?: AbortSignal): Promise<Sandbox> {
    if (this.honoursAbort) signal?.throwIfAborted();
    const sandbox = new FakeSandbox(`fake-${++this.#seq}`, spec.jobId ?? null);
    this.sandboxes.push(sandbox);
    const hold = this.#hold;
    if (hold) {
      hold.entered.resolve();
      const aborted = this.honoursAbort && signal ? whenAborted(signal) : new Promise<never>(() => {});
      await Promise.race([hold.release.promise, aborted]);
    }
    if (this.honoursAbort && signal?.aborted) {
      await sandbox.close();
      throw signal.reason;
    }
    return sandbox;
  }

  /** Sandboxes started and not closed. */
  get open(): FakeSandbox[] {
    return this.sandboxes.filter((sandbox) => !sandbox.isClosed);
  }

  onEvent(_listener: SandboxEventListener): () => void {
    return () => {};
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.sandboxes.map((sandbox) => sandbox.close()));
  }
}
