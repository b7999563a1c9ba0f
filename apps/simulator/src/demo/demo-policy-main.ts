// `npx tsx apps/simulator/src/demo/demo-policy-main.ts --scripts FILE.json [--swe-dataset FILE.jsonl]
// [--probability 0.6]` prints the policy `npm start`'s simulator runs (JSON, for --policy-file):
// every shipped task follows its script with the given probability and makes a wrong attempt
// otherwise, one seeded draw per trajectory.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { TTaskScript } from "../policies/policy-config.schema";
import type { SweScriptInstance } from "../swe/swe-policy-scripts";
import { buildDemoPolicy } from "./coin-flip-policy";

const { values } = parseArgs({
  options: {
    scripts: { type: "string" },
    "swe-dataset": { type: "string" },
    probability: { type: "string", default: "0.6" },
  },
});
const probability = Number(values.probability);
if (!values.scripts || !(probability >= 0 && probability <= 1)) {
  console.error(
    "usage: demo-policy-main.ts --scripts FILE.json [--swe-dataset FILE.jsonl] [--probability 0..1]",
  );
  process.exit(2);
}
const scripts = (JSON.parse(readFileSync(values.scripts, "utf8")) as { tasks: Record<string, TTaskScript> })
  .tasks;
const sweInstances = values["swe-dataset"]
  ? readFileSync(values["swe-dataset"], "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as SweScriptInstance)
  : [];
process.stdout.write(`${JSON.stringify(buildDemoPolicy({ scripts, sweInstances, probability }))}\n`);
