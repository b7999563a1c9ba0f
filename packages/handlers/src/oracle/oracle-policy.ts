import type { ChatFormat, GenerateResult, InferencePool } from "@raas/engine";

/** A tool call the oracle makes. */
export interface OracleToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One turn of an oracle script: the tool calls made in it, or a final message (no tool call). */
export type OracleTurn = OracleToolCall[] | { text: string };

/**
 * Task ids of oracle-check jobs start with this marker, and their prompts name them after
 * `Task id: ` (every agent handler writes that line): the policy finds a job's script by it.
 */
export const ORACLE_TASK_PREFIX = "raas-oracle-check-";
const ORACLE_TASK_ID = new RegExp(`Task id: (${ORACLE_TASK_PREFIX}\\S+)`);

const encode = (text: string) => Array.from(text, (c) => c.codePointAt(0) ?? 0);
const decode = (ids: readonly number[]) => ids.map((id) => String.fromCodePoint(id)).join("");

/**
 * The oracle's "model" format: one token per character, a response `CALL:<json tool calls>`.
 * Only the oracle policy below speaks it; no model is involved in an oracle check.
 */
export const oracleChatFormat: ChatFormat = {
  family: "raas-oracle",
  stopTokenIds: [0],
  renderInitialPrompt: (input) => encode(`${input.systemPrompt}\n${input.userMessage}\n`),
  parseResponse: (ids) => {
    const text = decode(ids);
    if (!text.startsWith("CALL:")) return { thinking: null, content: text, toolCalls: [], callErrors: [] };
    return {
      thinking: null,
      content: "",
      toolCalls: JSON.parse(text.slice(5)) as OracleToolCall[],
      callErrors: [],
    };
  },
  renderObservations: ({ observations }) => encode(`\n[${observations.length} observations]\n`),
  decode,
};

/** The submit call that ends a script: with `answer` when given. */
export const submitCall = (answer?: string): OracleToolCall => ({
  name: "submit",
  arguments: answer === undefined ? {} : { answer },
});

/** The python call that runs a Harbor task's solve.sh in the workspace (as the oracle's one turn). */
export function solveScriptTurn(script: string): OracleToolCall[] {
  const code = [
    "import subprocess",
    `r = subprocess.run(["bash", "-c", ${JSON.stringify(script)}], cwd="/workspace", capture_output=True, text=True, stdin=subprocess.DEVNULL)`,
    "print(r.returncode, r.stdout[-2000:], r.stderr[-2000:])",
  ].join("\n");
  return [{ name: "python", arguments: { code } }];
}

/**
 * The reference solution played as a policy (labelled: it is no model): each job follows the
 * script of its task id turn by turn, then submits. The handler's own stages run around it —
 * INIT, the agent loop's tool calls in the real sandbox, EVAL with the task's real verifier — so
 * an oracle check grades exactly as a rollout would.
 */
export function createOraclePolicy(
  options: {
    /** Finds a prompt's task id (group 1). Default: `Task id: raas-oracle-check-…`. */
    taskIdPattern?: RegExp;
  } = {},
): {
  inference: InferencePool;
  /** Sets the script of a task id (before its job is submitted). */
  script(taskId: string, turns: OracleTurn[]): void;
} {
  const taskIdPattern = options.taskIdPattern ?? ORACLE_TASK_ID;
  const scripts = new Map<string, OracleTurn[]>();
  const turnOf = new Map<string, number>();
  const inference: InferencePool = {
    releaseJob: (jobId) => {
      turnOf.delete(jobId);
    },
    async generate(request): Promise<GenerateResult> {
      const taskId = taskIdPattern.exec(decode(request.promptIds))?.[1] ?? "";
      const turn = turnOf.get(request.jobId) ?? 0;
      turnOf.set(request.jobId, turn + 1);
      const step = scripts.get(taskId)?.[turn] ?? [submitCall()];
      const responseIds = encode(Array.isArray(step) ? `CALL:${JSON.stringify(step)}` : step.text);
      return {
        responseIds,
        logprobs: responseIds.map(() => 0),
        finishReason: "stop",
        backendId: "oracle",
        weightVersion: null,
        cachedPromptTokens: 0,
        latencyMs: 0,
      };
    },
  };
  return { inference, script: (taskId, turns) => scripts.set(taskId, turns) };
}
