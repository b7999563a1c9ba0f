// `--judge-backend` parsing: repeatable and comma lists, `[vllm=|sglang=]url[#model]` as
// RAAS_JUDGE_BACKENDS, the model read from /v1/models when not named, and each mistake in one line.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectJudgeBackend, resolveJudgeBackends } from "../src/commands/env-judge-backends";

let server: Server;
let url = "";
let models: Array<{ id: string }> = [{ id: "judge-model" }];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== "/v1/models") {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", data: models }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("--judge-backend", () => {
  it("collects repeated options and comma lists, dropping blanks", () => {
    const once = collectJudgeBackend("http://a:1#m, http://b:2#m,", undefined);
    expect(collectJudgeBackend("sglang=http://c:3#m", once)).toEqual([
      "http://a:1#m",
      "http://b:2#m",
      "sglang=http://c:3#m",
    ]);
  });

  it("takes a named model as it is and asks the server for one not named", async () => {
    models = [{ id: "judge-model" }];
    expect(await resolveJudgeBackends(["vllm=http://judge:8000/#Qwen/Qwen3-32B", url])).toEqual([
      { id: "judge-judge:8000", baseUrl: "http://judge:8000", modelName: "Qwen/Qwen3-32B" },
      { id: `judge-${url.slice("http://".length)}`, baseUrl: url, modelName: "judge-model" },
    ]);
  });

  it("says what is wrong, and how to name the model, in one line", async () => {
    await expect(resolveJudgeBackends(["nemo-rl=http://j:1#m"])).rejects.toThrow(
      "--judge-backend nemo-rl=http://j:1#m: a judge backend serves /v1/chat/completions (vllm or sglang), not nemo-rl",
    );
    await expect(resolveJudgeBackends(["ftp://j:1#m"])).rejects.toThrow(/expected an http\(s\) URL/);
    await expect(resolveJudgeBackends(["http://j:1#a", "http://j:1#b"])).rejects.toThrow(
      "--judge-backend http://j:1#b: j:1 is named twice",
    );
    models = [{ id: "a" }, { id: "b" }];
    await expect(resolveJudgeBackends([url])).rejects.toThrow(
      `--judge-backend ${url}: /v1/models lists 2 models; name it after #, e.g. ${url}#Qwen/Qwen3-32B`,
    );
    await expect(resolveJudgeBackends([`${url}/nothing-here`])).rejects.toThrow(
      /could not read its model from \/v1\/models \(HTTP 404\); name it after #/,
    );
  });
});
