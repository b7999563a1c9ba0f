import { seededRandom } from "@raas/shared";

/** Seeded PRNG (mulberry32), so a failing fuzz run can be replayed with its seed. */
export function createRandom(seed: number) {
  const next = seededRandom(seed);
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
export type Random = ReturnType<typeof createRandom>;

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

const METHODS = ["GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"];
const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/jsonx",
  "application/vnd.raas+json",
  ";;;",
  "",
];

function randomString(random: Random, maxLength: number): string {
  const alphabets = [
    "abcdefghijklmnopqrstuvwxyz0123456789",
    '{}[]":,\\/ \t\n%?&=#',
    "é漢字🙂\u0000\u202e\ud800",
  ];
  let out = "";
  const length = random.int(maxLength + 1);
  for (let i = 0; i < length; i += 1) out += random.pick(random.pick(alphabets).split(""));
  return out;
}

/** A random JSON-able value of bounded depth and size. */
export function randomValue(random: Random, depth = 0): unknown {
  const roll = random.int(depth > 3 ? 7 : 9);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.pick([0, -1, 1.5, 2 ** 53 + 1, -(2 ** 31), 1e308, -0, 42]);
    case 3:
      return randomString(random, 20);
    case 4:
      return random.pick(["sleep", "", "swe", "0", "null", "x".repeat(400)]);
    case 5:
      return random.int(1_000_000);
    case 6:
      return random.pick(["init", "run", "eval", "completed", "queued"]);
    case 7:
      return Array.from({ length: random.int(4) }, () => randomValue(random, depth + 1));
    default: {
      const keys = [
        "kind",
        "payload",
        "jobKey",
        "priority",
        "groupId",
        "batchId",
        "timeoutsMs",
        "metadata",
        "ids",
        "timeoutMs",
        "jobId",
        "jobs",
        "stage",
        "concurrency",
        "limit",
        "cursor",
        "status",
        "__proto__",
        "constructor",
        randomString(random, 6),
      ];
      const object: Record<string, unknown> = {};
      for (let i = random.int(5); i > 0; i -= 1) object[random.pick(keys)] = randomValue(random, depth + 1);
      return object;
    }
  }
}

/** A mostly valid submit request with one field broken. */
function mutatedSubmit(random: Random): unknown {
  const job: Record<string, unknown> = {
    kind: "sleep",
    payload: { initMs: random.int(20), runMs: random.int(20), evalMs: random.int(20) },
    priority: random.int(10),
    // A few shared keys and one batch, so resubmissions collide (409) and batch exports find jobs.
    ...(random.next() < 0.4 && {
      jobKey: random.pick(["fuzz-a", "fuzz-b", "fuzz-c"]),
      batchId: "fuzz-batch",
    }),
  };
  const field = random.pick([
    "kind",
    "payload",
    "priority",
    "jobKey",
    "groupId",
    "timeoutsMs",
    "metadata",
    "extra",
    "payload.runMs",
    "payload.fail",
  ]);
  const value = randomValue(random);
  if (field.startsWith("payload.")) (job.payload as Record<string, unknown>)[field.slice(8)] = value;
  else job[field] = value;
  return job;
}

function nested(random: Random): string {
  const depth = random.pick([65, 100, 1_000, 20_000]);
  const open = random.pick(["[", '{"a":']);
  const close = open === "[" ? "]" : "}";
  const balanced = random.next() < 0.7;
  return `{"kind":"sleep","metadata":${open.repeat(depth)}1${balanced ? close.repeat(depth) : ""}}`;
}

function randomBody(random: Random, maxBodyBytes: number): Buffer | null {
  switch (random.int(14)) {
    case 0:
      return null;
    case 1:
      return Buffer.alloc(0);
    case 2:
      return Buffer.from(JSON.stringify(mutatedSubmit(random)));
    case 3:
      return Buffer.from(JSON.stringify(randomValue(random)));
    case 4: {
      const text = JSON.stringify(mutatedSubmit(random));
      return Buffer.from(text.slice(0, random.int(text.length)));
    }
    case 5:
      return Buffer.from(
        random.pick([
          '{"kind":"sleep","priority":1e400}',
          '{"kind":"sleep","priority":-1e400}',
          '{"kind":"sleep","payload":{"runMs":123456789012345678901234567890}}',
          '{"ids":["a"],"timeoutMs":1e999}',
          '{"stage":"run","concurrency":9007199254740993}',
          '{"limit":NaN}',
          '{"kind":Infinity}',
          '{"kind":"sleep"}{"kind":"sleep"}',
          '{"kind":"\\ud800"}',
          '{"__proto__":{"polluted":true},"kind":"sleep"}',
        ]),
      );
    case 6:
      return Buffer.from(nested(random));
    case 7: {
      const bytes = Buffer.alloc(random.int(64) + 1);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = random.int(256);
      return random.next() < 0.5
        ? Buffer.concat([Buffer.from('{"kind":"'), bytes, Buffer.from('"}')])
        : bytes;
    }
    case 8:
      return Buffer.from(
        JSON.stringify({ kind: "sleep", metadata: { blob: "x".repeat(maxBodyBytes + random.int(1000)) } }),
      );
    case 9:
      return Buffer.from(
        JSON.stringify({
          jobs: Array.from({ length: random.pick([0, 1, 1_001]) }, () => mutatedSubmit(random)),
        }),
      );
    case 10:
      return Buffer.from(
        JSON.stringify({
          ids: Array.from({ length: random.int(3) }, () => randomString(random, 10)),
          timeoutMs: random.pick([0, 1, -5, 60_001, "10"]),
        }),
      );
    case 11:
      return Buffer.from(random.pick(["null", "true", "[]", "0", '"sleep"', "{}", " ", "\n\n"]));
    case 12:
      return Buffer.from(JSON.stringify({ 0: mutatedSubmit(random) }));
    default:
      return Buffer.from(randomString(random, 200));
  }
}

/** Percent-encodes every byte (lone surrogates become U+FFFD instead of throwing). */
function encodeBytes(text: string): string {
  return [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
}

/** A query string of the export and sandbox routes: known keys with odd values, and unknown keys. */
function randomQuery(random: Random): string {
  const keys = ["cursor", "limit", "jobId", "sandboxId", "hostId", "type", "sinceMs", "batchId", "bogus"];
  const values = () =>
    random.pick([
      encodeBytes(randomString(random, 12)),
      "%00",
      "",
      "0",
      "-1",
      "1.5",
      "1e16",
      "1e400",
      "9007199254740993",
      "NaN",
      "crashed",
      "fuzz-batch",
      "x".repeat(400),
    ]);
  const pairs = Array.from({ length: random.int(4) }, () => `${random.pick(keys)}=${values()}`);
  return pairs.length > 0 ? `?${pairs.join("&")}` : "";
}

function randomPath(random: Random): string {
  const input = () =>
    encodeBytes(random.next() < 0.8 ? JSON.stringify(randomValue(random)) : randomString(random, 30));
  const id = () =>
    random.pick([encodeBytes(randomString(random, 12)), "fuzz-batch", "%00", "%E0%A4%A", "%ff"]);
  return random.pick([
    `/api/v1/jobs/${id()}/export${randomQuery(random)}`,
    `/api/v1/batches/${id()}/trajectories${randomQuery(random)}`,
    `/api/v1/batches/${id()}/trajectories.jsonl${randomQuery(random)}`,
    `/api/v1/sandboxes/events${randomQuery(random)}`,
    `/api/v1/sandboxes/summary${randomQuery(random)}`,
    `/api/v1/sandboxes/${id()}${randomQuery(random)}`,
    `/trpc/jobs.export?input=${input()}`,
    `/trpc/jobs.exportBatch?input=${input()}`,
    `/trpc/sandboxes.events?input=${input()}`,
    `/trpc/sandboxes.summary?input=${input()}`,
    `/trpc/sandboxes.get?input=${input()}`,
    "/api/v1/jobs",
    "/api/v1/jobs",
    "/api/v1/jobs/batch",
    "/api/v1/jobs/cancel",
    "/api/v1/jobs/wait",
    `/api/v1/jobs/${encodeBytes(randomString(random, 12))}`,
    `/api/v1/jobs/${encodeBytes(randomString(random, 12))}/trajectory`,
    "/api/v1/jobs/%E0%A4%A/trajectory",
    `/api/v1/jobs?limit=${encodeBytes(randomString(random, 5))}&status=${random.pick(["queued", "nope", ""])}`,
    `/api/v1/jobs?limit=${random.pick(["1e3", "-1", "0x10", "2", "501", ""])}&limit=2&bogus=1`,
    "/api/v1/stats?x=1",
    "/api/v1/stages/concurrency",
    "/api/v1/health",
    "/api/v1/",
    "/api/v2/jobs",
    "/trpc/jobs.submit",
    "/trpc/jobs.submit",
    "/trpc/jobs.submitMany",
    "/trpc/jobs.cancel",
    `/trpc/jobs.get?input=${input()}`,
    `/trpc/jobs.list?input=${input()}`,
    `/trpc/jobs.wait?input=${input()}`,
    `/trpc/jobs.trajectory?input=${input()}`,
    `/trpc/jobs.submit,jobs.get?batch=1&input=${input()}`,
    `/trpc/${"jobs.get,".repeat(random.int(200))}jobs.list?batch=1`,
    `/trpc/jobs.events?input=${input()}`,
    "/trpc/system.setConcurrency",
    `/trpc/system.health?input=${input()}`,
    "/trpc/",
    "/trpc",
    "/trpc/nope.nope",
    "/openapi.json",
    "/metrics",
    "/health",
    "/",
    `/${encodeBytes(randomString(random, 40))}`,
    `/${"a/".repeat(random.int(500))}`,
    "/..%2f..%2fetc/passwd",
  ]);
}

/** A valid sleep job under a shared key with a varying payload: concurrent resubmissions, many a 409. */
function resubmission(random: Random, trainerToken: string): FuzzRequest {
  const job = () => ({
    kind: "sleep",
    jobKey: random.pick(["fuzz-a", "fuzz-b"]),
    batchId: "fuzz-batch",
    payload: { initMs: 0, runMs: random.int(3), evalMs: 0 },
  });
  const isBatch = random.next() < 0.3;
  return {
    method: "POST",
    path: isBatch ? "/api/v1/jobs/batch" : "/api/v1/jobs",
    headers: { authorization: `Bearer ${trainerToken}`, "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(isBatch ? { jobs: [job(), job()] } : job())),
  };
}

/** One random malformed (or occasionally valid) request. */
export function randomRequest(
  random: Random,
  tokens: { trainer: string; admin: string; viewer: string },
  maxBodyBytes: number,
): FuzzRequest {
  const headers: Record<string, string> = {};
  const contentType = random.pick(CONTENT_TYPES);
  if (contentType) headers["content-type"] = contentType;
  const auth = random.pick([
    `Bearer ${tokens.trainer}`,
    `Bearer ${tokens.trainer}`,
    `Bearer ${tokens.admin}`,
    `Bearer ${tokens.viewer}`,
    "Bearer",
    "Bearer    ",
    "Basic dXNlcjpwYXNz",
    `bearer ${tokens.trainer} extra`,
    randomString(random, 30).replace(/[^\x21-\x7e]/g, "x"),
    "",
  ]);
  if (auth) headers.authorization = auth;
  if (random.next() < 0.06) return resubmission(random, tokens.trainer);
  if (random.next() < 0.15)
    headers.accept = random.pick(["text/event-stream", "application/jsonl", "*/*", "nonsense"]);
  if (random.next() < 0.1) headers["trpc-accept"] = "application/jsonl";
  if (random.next() < 0.1) headers["x-http-method-override"] = random.pick(["POST", "GET", "DELETE"]);
  return {
    method: random.pick(METHODS),
    path: randomPath(random),
    headers,
    body: randomBody(random, maxBodyBytes),
  };
}
