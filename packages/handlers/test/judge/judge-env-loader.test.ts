import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { failureOf } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { judgeJobRequest, loadJudgeEnvironment } from "../../src/judge/judge-env-loader";
import { detectEnvironmentKind, loadEnvironment } from "../../src/oracle/environment-source";

const ROOT = fileURLToPath(new URL("../../../../environments/", import.meta.url));
const dirs: string[] = [];

function envDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "judge-env-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return failureOf(error)?.message ?? "no failure";
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("judge environments", () => {
  it("loads the judge-rubric example: rubric, scale, the rows' own points and references", async () => {
    const env = await loadJudgeEnvironment(join(ROOT, "judge-rubric"));
    expect(env.name).toBe("judge-rubric");
    expect(env.tasks).toHaveLength(5);
    const first = env.tasks[0];
    expect(first?.taskId).toBe("explain-tcp-handshake");
    expect(first?.judge.scale).toEqual({ min: 0, max: 10 });
    expect(first?.judge.rubric).toContain("Correctness (0-4)");
    expect(first?.judge.rubric).toContain("For this task also:\nNames SYN, SYN-ACK and ACK");
    expect(first?.judge.reference).toContain("SYN-ACK");
    expect(env.tasks[1]?.judge.reference).toBeNull();
    expect(first?.agent?.maxTurns).toBe(2);
    expect(judgeJobRequest(first as NonNullable<typeof first>)).toMatchObject({
      kind: "judge",
      timeoutsMs: { eval: 90_000 },
    });
  });

  it("is told apart from reward-fn environments by its [judge] table, and oracle-checked by its references", async () => {
    expect(await detectEnvironmentKind(join(ROOT, "judge-rubric"))).toBe("judge");
    expect(await detectEnvironmentKind(join(ROOT, "math-verify"))).toBe("reward-fn");
    const env = await loadEnvironment(join(ROOT, "judge-rubric"));
    expect(env.kind).toBe("judge");
    expect(env.tasks.map((task) => task.oracle !== null)).toEqual([true, false, true, false, false]);
  });

  it("says which file and field is wrong", async () => {
    const row = '{"prompt": "Say hi."}\n';
    expect(
      await messageOf(loadJudgeEnvironment(envDir({ "environment.toml": "[judge]\n", "data.jsonl": row }))),
    ).toMatch(/rubric\.md: missing \(the rubric\)/);
    const badScale = envDir({
      "environment.toml": "[judge]\nscore_min = 5\nscore_max = 5\n",
      "rubric.md": "r",
      "data.jsonl": row,
    });
    expect(await messageOf(loadJudgeEnvironment(badScale))).toContain("score_max must be above score_min");
    const typo = envDir({
      "environment.toml": "[judge]\nscore_maxx = 5\n",
      "rubric.md": "r",
      "data.jsonl": row,
    });
    expect(await messageOf(loadJudgeEnvironment(typo))).toContain("score_maxx");
    const twice = envDir({
      "environment.toml": "[judge]\n",
      "rubric.md": "r",
      "data.jsonl": '{"id": "a", "prompt": "x"}\n{"id": "a", "prompt": "y"}\n',
    });
    expect(await messageOf(loadJudgeEnvironment(twice))).toMatch(/data\.jsonl:2: id a appears twice/);
  });
});
