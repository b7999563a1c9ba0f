import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TStepTask } from "@raas/shared";
import type { TaskCatalog } from "@raas/training";

/** `packages/handlers/data/`: the tasks shipped with the handlers. */
const SHIPPED_DATA_DIR = fileURLToPath(new URL("../../data/", import.meta.url));

/** One dataset of JSON Lines: a file and how a line becomes a step task. */
export interface JsonlDataset {
  name: string;
  kind: string;
  /** Path of the `.jsonl` file. */
  file: string;
  /** The task of one parsed line. */
  toTask(line: Record<string, unknown>): TStepTask;
}

/**
 * The shipped datasets: `math`, `code` and `stem` (each line a payload with its `taskId`) and
 * `swe` (SWE-bench instances, each wrapped as `{ taskId, instance }` as the eval CLI submits them).
 */
function shippedDatasets(dataDir: string = SHIPPED_DATA_DIR): JsonlDataset[] {
  const plain = (kind: string): JsonlDataset => ({
    name: kind,
    kind,
    file: join(dataDir, `${kind}.jsonl`),
    toTask: (line) => ({ taskId: String(line.taskId), kind, payload: line }),
  });
  return [
    plain("math"),
    plain("code"),
    plain("stem"),
    {
      name: "swe",
      kind: "swe",
      file: join(dataDir, "swe", "instances.jsonl"),
      toTask: (line) => {
        const taskId = String(line.instance_id);
        return { taskId, kind: "swe", payload: { taskId, instance: line } };
      },
    },
  ];
}

/**
 * A task catalog over JSON Lines files, read once on first use. Only datasets whose kind is in
 * `kinds` (the handlers registered on the server) are listed: a step could not run the others.
 * A file that cannot be read or parsed fails the call that needs it, naming file and line.
 */
export class JsonlTaskCatalog implements TaskCatalog {
  readonly #datasets: JsonlDataset[];
  readonly #loaded = new Map<string, Promise<readonly TStepTask[]>>();

  constructor(options: { datasets: readonly JsonlDataset[]; kinds: readonly string[] }) {
    const kinds = new Set(options.kinds);
    this.#datasets = options.datasets.filter((dataset) => kinds.has(dataset.kind));
  }

  async list(): Promise<{ name: string; size: number; kinds: string[] }[]> {
    return Promise.all(
      this.#datasets.map(async (dataset) => ({
        name: dataset.name,
        size: (await this.#load(dataset)).length,
        kinds: [dataset.kind],
      })),
    );
  }

  async tasks(name: string): Promise<readonly TStepTask[] | null> {
    const dataset = this.#datasets.find((candidate) => candidate.name === name);
    return dataset ? this.#load(dataset) : null;
  }

  #load(dataset: JsonlDataset): Promise<readonly TStepTask[]> {
    let loaded = this.#loaded.get(dataset.name);
    if (!loaded) {
      loaded = readJsonl(dataset);
      // A failed read is tried again next time rather than remembered.
      loaded.catch(() => this.#loaded.delete(dataset.name));
      this.#loaded.set(dataset.name, loaded);
    }
    return loaded;
  }
}

async function readJsonl(dataset: JsonlDataset): Promise<readonly TStepTask[]> {
  const text = await readFile(dataset.file, "utf8");
  const tasks: TStepTask[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(`${dataset.file}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new Error(`${dataset.file}:${index + 1}: expected a JSON object`);
    tasks.push(dataset.toTask(value as Record<string, unknown>));
  }
  return tasks;
}

/** The catalog of the shipped datasets whose handler is registered (`kinds`). */
export function createShippedTaskCatalog(options: {
  kinds: readonly string[];
  dataDir?: string;
}): TaskCatalog {
  return new JsonlTaskCatalog({ datasets: shippedDatasets(options.dataDir), kinds: options.kinds });
}
