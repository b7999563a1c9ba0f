import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { tamperedFailure, ZCanaryCheck } from "../base/canary/index";
import { defineAgentHandler } from "../base/define-agent-handler";
import { submitToolSpec } from "../base/submit-tool";
import { runHiddenTests } from "./hidden-tests";

const ZStdioTests = z
  .object({
    kind: z.literal("stdio").describe("Cases fed on stdin, compared on stdout."),
    cases: z
      .array(
        z
          .object({
            input: z.string().describe("What the program reads on stdin."),
            output: z.string().describe("What it must write on stdout (trailing whitespace ignored)."),
          })
          .strict(),
      )
      .min(1)
      .max(1_000)
      .describe("The cases, 1 to 1000."),
    timeLimitMs: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .default(2_000)
      .describe("CPU-time limit of each case in ms. Default 2_000."),
  })
  .strict()
  .describe("Hidden stdin/stdout cases.");

const ZUnittestTests = z
  .object({
    kind: z.literal("unittest").describe("A Python unittest module run against the solution."),
    code: z
      .string()
      .min(1)
      .max(1_000_000)
      .describe("A Python unittest module (saved as `test_hidden.py`) that imports the solution module."),
    timeLimitMs: z
      .number()
      .int()
      .min(1)
      .max(3_600_000)
      .default(10_000)
      .describe("Time limit of the whole suite in ms. Default 10_000."),
  })
  .strict()
  .describe("A hidden unittest module.");

const ZCodePayload = ZAgentTaskBase.extend({
  prompt: z.string().min(1).max(100_000).describe("The problem statement."),
  solutionPath: z
    .string()
    .regex(/^[\w][\w./-]*\.py$/, "a relative .py path")
    .refine((p) => !p.includes(".."), "must stay inside the workspace")
    .default("solution.py")
    .describe("Where the model writes its solution, relative to the workspace. Default `solution.py`."),
  tests: z
    .discriminatedUnion("kind", [ZStdioTests, ZUnittestTests])
    .describe("Hidden tests, never shown to the model: stdin/stdout cases or a unittest module."),
  rewardMode: z
    .enum(["fraction", "all_pass"])
    .optional()
    .describe(
      "`fraction` of passed tests, or `all_pass` (1 only when every test passes). Default: the server's.",
    ),
})
  .strict()
  .meta({ description: "A programming problem with hidden tests." });

/** The code handler's part of the job result. */
const ZCodeResult = z.object({
  rewardMode: z.enum(["fraction", "all_pass"]).describe("How the reward was computed."),
  solutionFound: z.boolean().describe("False when no usable solution file was written (reward 0)."),
  passed: z.number().int().describe("Cases (or tests) passed."),
  total: z.number().int().describe("Cases (or tests) run."),
  pythonVersion: z.string().nullable().optional().describe("Python version of the grading sandbox."),
  cases: z
    .array(
      z.object({
        name: z.string().describe("The case's or test's name."),
        status: z
          .string()
          .describe(
            "stdio: passed | wrong_answer | runtime_error | timeout; unittest: passed | failed | error | timeout.",
          ),
        durationMs: z.number().describe("Time the case took, in ms."),
        detail: z.string().describe("What went wrong (empty when passed)."),
      }),
    )
    .describe("Each graded case."),
  canaries: ZCanaryCheck.nullable()
    .optional()
    .describe("Canaries planted in a unittest suite (null for stdio cases, which run no test framework)."),
});
export type TCodePayload = z.infer<typeof ZCodePayload>;

export interface CodeHandlerConfig {
  /** Default reward mode when the payload has none. Default `all_pass`. */
  rewardMode?: "fraction" | "all_pass";
}

const SYSTEM_PROMPT =
  "You are an expert Python programmer working in a sandbox (/workspace) with bash, python and " +
  "editor tools. Write a complete solution file, test it yourself, then call submit. Hidden tests " +
  "will be run against your file.";

function userMessage(payload: TCodePayload): string {
  const io =
    payload.tests.kind === "stdio"
      ? "Your program reads from standard input and writes the answer to standard output."
      : `Your module will be imported as \`${payload.solutionPath.replace(/\.py$/, "").replaceAll("/", ".")}\` by unit tests.`;
  return `Task id: ${payload.taskId}\n\n${payload.prompt}\n\nWrite your solution to ${payload.solutionPath}. ${io}`;
}

/** Largest solution file graded, in bytes (1 MiB); a bigger one counts as no solution. */
const MAX_SOLUTION_BYTES = 1024 ** 2;

/** Code: the model writes a solution file; EVAL runs hidden tests in a fresh sandbox. */
export function createCodeHandlerFactory(config: CodeHandlerConfig = {}) {
  return defineAgentHandler<TCodePayload, undefined, { solution: string | null }>({
    kind: "code",
    description: "Programming problems: write a solution file, graded by hidden tests in a fresh sandbox.",
    payloadSchema: ZCodePayload,
    resultSchema: ZCodeResult,
    tools: ["bash", "python", "editor"],
    submitTool: submitToolSpec("Call when your solution file is complete; ends the task."),
    limits: { maxTurns: 20 },
    systemPrompt: () => SYSTEM_PROMPT,
    userMessage,
    async collect({ sandbox, payload, signal }) {
      // A command apart from the agent's shell (nothing it set up there can answer for it). A
      // missing, unreadable, blocking (FIFO) or oversized solution is the policy's: no solution.
      const read = await sandbox.exec(["cat", "--", payload.solutionPath], {
        timeoutMs: 10_000,
        maxOutputBytes: MAX_SOLUTION_BYTES,
        signal,
      });
      const isUsable = read.exitCode === 0 && !read.timedOut && !read.truncated;
      return { solution: isUsable ? read.stdout : null };
    },
    async evaluate({ payload, artifacts, openSandbox, signal }) {
      const rewardMode = payload.rewardMode ?? config.rewardMode ?? "all_pass";
      if (artifacts.solution === null) {
        return { reward: 0, result: { rewardMode, solutionFound: false, passed: 0, total: 0, cases: [] } };
      }
      const { cases, pythonVersion, canaries } = await runHiddenTests({
        openSandbox,
        solutionPath: payload.solutionPath,
        solution: artifacts.solution,
        tests: payload.tests,
        signal,
      });
      const passed = cases.filter((c) => c.status === "passed").length;
      const total = cases.length;
      const result = { rewardMode, solutionFound: true, passed, total, pythonVersion, cases, canaries };
      if (canaries !== null && canaries.lies.length > 0) throw tamperedFailure(canaries.lies, result);
      const reward = rewardMode === "fraction" ? passed / total : passed === total ? 1 : 0;
      return { reward, result };
    },
  });
}
