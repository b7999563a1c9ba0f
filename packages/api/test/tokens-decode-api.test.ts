// `tokens.decode` over real HTTP (tRPC and REST): each id's own text from the server's decoder (a
// toy vocabulary here; apps/server hands it Qwen3's), the cap on ids per call as a 400 with a
// sentence, viewers may read, and a server without a decoder answers 503.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DECODE_IDS } from "../src/routers/tokens/token-pieces";
import { http, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

const VOCABULARY: Record<number, string> = { 7: "Hello", 8: " world", 9: "\uFFFD", 151644: "<|im_start|>" };

describe("tokens.decode", () => {
  let server: TestServer;
  let bare: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      auth: { requireViewerToken: true },
      tokenText: { family: "toy", decode: (ids) => ids.map((id) => VOCABULARY[id] ?? "?").join("") },
    });
    bare = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await bare.close();
  });

  it("gives each id its own text in request order, for a viewer", async () => {
    const decoded = await trpcClient(server.url, TOKENS.viewer).tokens.decode.query({
      ids: [151644, 7, 8, 8, 9],
    });
    expect(decoded).toEqual({
      family: "toy",
      tokens: [
        { id: 151644, text: "<|im_start|>", isPartial: false },
        { id: 7, text: "Hello", isPartial: false },
        { id: 8, text: " world", isPartial: false },
        { id: 8, text: " world", isPartial: false },
        { id: 9, text: "\uFFFD", isPartial: true },
      ],
    });
  });

  it("is served over REST too, and needs the viewer token where the server requires one", async () => {
    const rest = await http(`${server.url}/api/v1/tokens/decode`, {
      body: { ids: [7] },
      token: TOKENS.viewer,
    });
    expect(rest.status).toBe(200);
    expect(rest.body.tokens).toEqual([{ id: 7, text: "Hello", isPartial: false }]);
    const anonymous = await http(`${server.url}/api/v1/tokens/decode`, { body: { ids: [7] } });
    expect(anonymous.status).toBe(401);
  });

  it(`takes at most ${MAX_DECODE_IDS} ids per call: beyond it a 400 that says so`, async () => {
    const ids = Array.from({ length: MAX_DECODE_IDS + 1 }, () => 7);
    const tooMany = await http(`${server.url}/api/v1/tokens/decode`, { body: { ids }, token: TOKENS.viewer });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toContain(`at most ${MAX_DECODE_IDS} token ids per call`);
    const atCap = await http(`${server.url}/api/v1/tokens/decode`, {
      body: { ids: ids.slice(1) },
      token: TOKENS.viewer,
    });
    expect(atCap.status).toBe(200);
    expect(atCap.body.tokens).toHaveLength(MAX_DECODE_IDS);
  });

  it("refuses ids that are no token ids with a 400", async () => {
    const negative = await http(`${server.url}/api/v1/tokens/decode`, {
      body: { ids: [-1] },
      token: TOKENS.viewer,
    });
    expect(negative.status).toBe(400);
    const fraction = await http(`${server.url}/api/v1/tokens/decode`, {
      body: { ids: [1.5] },
      token: TOKENS.viewer,
    });
    expect(fraction.status).toBe(400);
  });

  it("answers 503 with a sentence on a server without a decoder", async () => {
    const response = await http(`${bare.url}/api/v1/tokens/decode`, { body: { ids: [7] } });
    expect(response.status).toBe(503);
    expect(response.body.error.message).toContain("no tokenizer");
  });
});
