import type { AgentToolbox } from "../agent/agent-loop.types";
import type { Sandbox } from "./sandbox-runtime.port";

/** A tool server an environment declares: a command started inside the job's sandbox, spoken to over its stdio. */
export interface ToolServerSpec {
  /** Names the server in tool listings and failures; unique within a job. */
  name: string;
  command: string;
  args: readonly string[];
  /** Variables added to the sandbox's environment for the server. */
  env: Readonly<Record<string, string>>;
}

/** How a tool server ended, as seen by the host. */
export interface ToolServerEnd {
  server: string;
  /** A sentence: the exit code or signal and the server's last stderr line. */
  message: string;
  /** The sandbox's own failure when the sandbox went first (it may blame the policy). */
  sandboxError?: unknown;
}

/**
 * The tools of a job's servers, running in its sandbox: the agent loop calls them like any
 * other tool. A call whose server ends during it throws a sandbox failure (infrastructure, or
 * the sandbox's own blame when a limit the agent used up closed it).
 */
export interface ToolServerSession extends AgentToolbox {
  /** Which server serves each offered tool. */
  readonly serverOf: ReadonlyMap<string, string>;
  /**
   * The first server found ended, or null while all run: a server known gone is reported at
   * once, the others are asked (a round trip) within `timeoutMs`; no answer in time is not an end.
   */
  findEnded(options: { signal: AbortSignal; timeoutMs: number }): Promise<ToolServerEnd | null>;
  /** Stops every server. Idempotent. */
  close(): Promise<void>;
}

/** Starts an environment's tool servers in a sandbox and lists their tools (an adapter: MCP). */
export interface ToolServerProvider {
  /** The protocol spoken, for messages (`mcp`). */
  readonly protocol: string;
  /**
   * Starts `servers` in `sandbox`, handshakes and lists their tools, within `timeoutMs`. A server
   * that cannot start, answer or list its tools fails as a sandbox failure: the caller's
   * configuration (`callerConfigFailure`, not retried) when evidence shows it (a missing command,
   * an exit or a protocol error before the handshake), else infrastructure.
   */
  open(
    sandbox: Sandbox,
    servers: readonly ToolServerSpec[],
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<ToolServerSession>;
}
