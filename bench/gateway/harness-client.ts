// The harnesses of `bench/gateway.bench.ts`: tool-calling conversations over HTTP against gateway
// sessions, timing each call; and the same harnesses calling the backend directly. Run in a
// process of their own (as harnesses run in their sandboxes, never in the server):
// `node --import tsx bench/gateway/harness-client.ts` reads `{ sessions: [{ key, url, index }],
// calls, toolOutputLines? }` (conversations through the gateway) or `{ direct: [{ key, url, bodies }] }` (each
// session's bodies POSTed in order to the backend) on stdin and writes
// `{ wallMs: { "<key>:<call>": ms }, answers?: { "<key>:<call>": text } }`.
import { Agent, request } from "node:http";
import { sessionSeed } from "./session-seed";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "bash",
      description: "Run a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  },
];

export interface HarnessSession {
  /** Names the session's calls in the answer (`<key>:<call>`). */
  key: string;
  /** The session's `/v1/chat/completions` URL. */
  url: string;
  /** Makes the task (and so the conversation) of each session its own. */
  index: number;
}

function post(agent: Agent, url: URL, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * What a tool call answers: the two-file listing, or `lines` lines of a test log, new text on every
 * call of every session (as real tool output is, so the gateway tokenizes it anew).
 */
function toolOutput(session: number, call: number, lines: number): string {
  if (lines <= 0) return "a.txt\nb.txt\n";
  return Array.from(
    { length: lines },
    (_, i) =>
      `tests/test_module_${session}_${call}.py::test_case_${i} ${i % 9 === 0 ? "FAILED" : "PASSED"} [${Math.floor((i * 100) / lines)}%]`,
  ).join("\n");
}

/**
 * Every session's conversation at once; the wall time of each call by `<key>:<call>`. Tool results
 * are `toolOutput(session, call, toolOutputLines)`.
 */
export async function runConversations(
  sessions: readonly HarnessSession[],
  calls: number,
  toolOutputLines = 0,
): Promise<Record<string, number>> {
  const agent = new Agent({ keepAlive: true });
  const wallMs: Record<string, number> = {};
  const conversation = async (session: HarnessSession) => {
    const url = new URL(session.url);
    const messages: unknown[] = [
      { role: "system", content: "You are a careful engineer." },
      { role: "user", content: `task_id: bench-gateway-${session.index}\nList the files.` },
    ];
    for (let call = 0; call < calls; call += 1) {
      // The session's seed: the chat arm straight to the backend samples what the gateway's session does.
      const body = JSON.stringify({
        model: "bench",
        messages,
        tools: TOOLS,
        max_tokens: 512,
        seed: sessionSeed(session.index),
      });
      const startedAt = performance.now();
      const response = await post(agent, url, body);
      wallMs[`${session.key}:${call}`] = performance.now() - startedAt;
      if (response.status !== 200) throw new Error(`gateway answered ${response.status}: ${response.text}`);
      const message = JSON.parse(response.text).choices[0].message;
      messages.push(message);
      for (const toolCall of message.tool_calls ?? []) {
        messages.push({
          role: "tool",
          tool_call_id: toolCall.id,
          content: toolOutput(session.index, call, toolOutputLines),
        });
      }
    }
  };
  try {
    await Promise.all(sessions.map(conversation));
    return wallMs;
  } finally {
    agent.destroy();
  }
}

/** A session's calls made straight to the backend: each JSON body POSTed to `url` in order. */
export interface DirectSession {
  key: string;
  url: string;
  bodies: string[];
}

/** Every session's direct calls at once; wall time and answer text of each by `<key>:<call>`. */
export async function runDirectCalls(
  sessions: readonly DirectSession[],
): Promise<{ wallMs: Record<string, number>; answers: Record<string, string> }> {
  const agent = new Agent({ keepAlive: true });
  const wallMs: Record<string, number> = {};
  const answers: Record<string, string> = {};
  const calls = async (session: DirectSession) => {
    const url = new URL(session.url);
    for (const [call, body] of session.bodies.entries()) {
      const startedAt = performance.now();
      const response = await post(agent, url, body);
      wallMs[`${session.key}:${call}`] = performance.now() - startedAt;
      if (response.status !== 200)
        throw new Error(`the backend answered ${response.status}: ${response.text}`);
      answers[`${session.key}:${call}`] = response.text;
    }
  };
  try {
    await Promise.all(sessions.map(calls));
    return { wallMs, answers };
  } finally {
    agent.destroy();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  let input = "";
  process.stdin.setEncoding("utf8");
  for await (const chunk of process.stdin) input += chunk;
  const parsed = JSON.parse(input) as
    | { sessions: HarnessSession[]; calls: number; toolOutputLines?: number }
    | { direct: DirectSession[] };
  const output =
    "direct" in parsed
      ? await runDirectCalls(parsed.direct)
      : { wallMs: await runConversations(parsed.sessions, parsed.calls, parsed.toolOutputLines) };
  process.stdout.write(JSON.stringify(output));
}
