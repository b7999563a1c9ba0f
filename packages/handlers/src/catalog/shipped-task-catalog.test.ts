import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createShippedTaskCatalog, JsonlTaskCatalog } from "./shipped-task-catalog";

describe("the shipped task catalog", () => {
  it("lists only datasets whose handler is registered, with their sizes", async () => {
    const catalog = createShippedTaskCatalog({ kinds: ["sleep", "math", "swe"] });
    expect(await catalog.list()).toEqual([
      { name: "math", size: 24, kinds: ["math"] },
      { name: "swe", size: 10, kinds: ["swe"] },
    ]);
    expect(await catalog.tasks("code")).toBeNull();
  });

  it("turns math lines into payloads with their taskId and swe instances into { taskId, instance }", async () => {
    const catalog = createShippedTaskCatalog({ kinds: ["math", "swe"] });
    const [math] = (await catalog.tasks("math")) ?? [];
    expect(math).toMatchObject({
      taskId: "math-001",
      kind: "math",
      payload: { taskId: "math-001", answer: "391" },
    });
    const [swe] = (await catalog.tasks("swe")) ?? [];
    expect(swe?.taskId).toBe("raas-fixtures__tinystats-1");
    expect(swe?.payload).toMatchObject({
      taskId: "raas-fixtures__tinystats-1",
      instance: { instance_id: "raas-fixtures__tinystats-1", repo: "raas-fixtures/tinystats" },
    });
  });
});

describe("JsonlTaskCatalog", () => {
  const dir = mkdtempSync(join(tmpdir(), "raas-catalog-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names the file and line of a bad line, and reads the file again once fixed", async () => {
    const file = join(dir, "toy.jsonl");
    writeFileSync(file, '{"taskId":"a"}\n\n{not json\n');
    const catalog = new JsonlTaskCatalog({
      datasets: [
        {
          name: "toy",
          kind: "toy",
          file,
          toTask: (line) => ({ taskId: String(line.taskId), kind: "toy", payload: line }),
        },
      ],
      kinds: ["toy"],
    });
    await expect(catalog.tasks("toy")).rejects.toThrow(`${file}:3: not valid JSON`);
    writeFileSync(file, '{"taskId":"a"}\n{"taskId":"b"}\n');
    expect((await catalog.tasks("toy"))?.map((t) => t.taskId)).toEqual(["a", "b"]);
  });
});
