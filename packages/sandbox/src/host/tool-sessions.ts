/** Tools whose calls share one stateful session in the sandbox (a shell, an interpreter). */
const SESSION_TOOLS: ReadonlySet<string> = new Set(["bash", "python"]);

/**
 * Queues the calls to each stateful session, one at a time, so that each call is sent only
 * once the session's previous call has settled (and its hang clock starts when it is sent, not
 * while it waits its turn). Calls to other tools are sent at once.
 */
export class ToolSessions {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(tool: string, send: () => Promise<T>): Promise<T> {
    if (!SESSION_TOOLS.has(tool)) return send();
    const previous = this.#tails.get(tool) ?? Promise.resolve();
    const result = previous.then(send);
    this.#tails.set(
      tool,
      result.catch(() => undefined),
    );
    return result;
  }
}
