import type { AgentToolbox, ToolResult, ToolServerEnd, ToolServerSession, ToolSpec } from "@raas/engine";
import { failureOf, sandboxFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { joinServerTools } from "./server-toolbox";

const spec = (name: string): ToolSpec => ({ name, description: name, parameters: { type: "object" } });
const ok: ToolResult = {
  output: "ok",
  exitCode: 0,
  isError: false,
  truncated: false,
  timedOut: false,
  durationMs: 1,
};
const bounds = { signal: new AbortController().signal, timeoutMs: 1_000 };

/** A handler toolbox (python, submit) whose python call runs `during` first. */
function handlerToolbox(during: () => void = () => undefined): AgentToolbox {
  return {
    specs: [spec("python"), spec("submit")],
    async call() {
      during();
      return ok;
    },
  };
}

/** A session of one server "db" offering `tools`; `end` is what it reports once set. */
function session(tools: string[]): ToolServerSession & { end: ToolServerEnd | null } {
  const fake = {
    end: null as ToolServerEnd | null,
    specs: tools.map(spec),
    serverOf: new Map(tools.map((tool) => [tool, "db"])),
    call: async () => ({ ...ok, output: "from the server" }),
    findEnded: async () => fake.end,
    close: async () => undefined,
  };
  return fake;
}

const ended: ToolServerEnd = { server: "db", message: 'MCP server "db" was killed by SIGKILL' };

describe("joinServerTools", () => {
  it("offers the handler's tools, then the servers', then the finish tool; `only` drops the handler's", () => {
    const names = (mode: "add" | "only") =>
      joinServerTools(handlerToolbox(), session(["query"]), mode).specs.map((s) => s.name);
    expect(names("add")).toEqual(["python", "query", "submit"]);
    expect(names("only")).toEqual(["query", "submit"]);
  });

  it("refuses a server tool named like an offered or a finish tool, saying which", () => {
    const join = (tools: string[], mode: "add" | "only") => () =>
      joinServerTools(handlerToolbox(), session(tools), mode);
    expect(join(["python"], "add")).toThrow(
      /"db" offers a tool named "python", which is the handler's built-in tool/,
    );
    expect(join(["submit"], "only")).toThrow(/named "submit"/);
    expect(join(["finish"], "add")).toThrow(/named "finish", which is the loop's finish tool/);
    // The environment declared the clash: its author's mistake, not retried as infrastructure.
    expect(failureOf(catchError(join(["python"], "add")))).toMatchObject({
      kind: "sandbox",
      cause: "caller",
    });
    // Under `only` the handler's tools are not offered: the name is free.
    expect(join(["python"], "only")().specs.map((s) => s.name)).toEqual(["python", "submit"]);
  });

  it("routes a server's tool to the session", async () => {
    const toolbox = joinServerTools(handlerToolbox(), session(["query"]), "add");
    expect((await toolbox.call("query", {}, bounds)).output).toBe("from the server");
  });

  it("blames the policy for a server that ended during its own built-in call", async () => {
    const servers = session(["query"]);
    const toolbox = joinServerTools(
      handlerToolbox(() => {
        servers.end = ended;
      }),
      servers,
      "add",
    );
    const error = await toolbox.call("python", {}, bounds).catch((e: unknown) => e);
    expect(failureOf(error, "policy")).toMatchObject({
      kind: "sandbox-error",
      policyReason: 'MCP server "db" ended during the agent\'s own python call',
    });
  });

  it("keeps a server that had ended before the call infrastructure", async () => {
    const servers = session(["query"]);
    servers.end = ended;
    const error = await joinServerTools(handlerToolbox(), servers, "add")
      .call("python", {}, bounds)
      .catch((e: unknown) => e);
    expect(failureOf(error)).toMatchObject({
      kind: "sandbox-error",
      cause: "infrastructure",
      reason: "crashed",
    });
  });

  it("passes the sandbox's own failure (and its blame) when the sandbox went first", async () => {
    const servers = session(["query"]);
    const sandboxError = sandboxFailure("closed", "the sandbox is closed");
    const toolbox = joinServerTools(
      handlerToolbox(() => {
        servers.end = { ...ended, sandboxError };
      }),
      servers,
      "add",
    );
    await expect(toolbox.call("python", {}, bounds)).rejects.toBe(sandboxError);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}
