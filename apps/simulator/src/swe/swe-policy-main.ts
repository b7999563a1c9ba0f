// `npx tsx apps/simulator/src/swe/swe-policy-main.ts --dataset FILE.jsonl [--solve ID,ID | --solve-all]
// [--harness-agnostic]` prints a scripted policy (JSON) for `npm run simulator -- --policy-file <it>`:
// the listed instances are solved with their gold patch, the others get a wrong fix. With
// `--harness-agnostic` the scripts play through any harness's own tools (real agent CLIs).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildHarnessSwePolicyConfig } from "./harness-swe-scripts";
import { buildSwePolicyConfig, type SweScriptInstance } from "./swe-policy-scripts";

const { values } = parseArgs({
  options: {
    dataset: { type: "string" },
    solve: { type: "string", default: "" },
    "solve-all": { type: "boolean", default: false },
    "harness-agnostic": { type: "boolean", default: false },
  },
});
if (!values.dataset) {
  console.error(
    "usage: swe-policy-main.ts --dataset FILE.jsonl [--solve ID,ID | --solve-all] [--harness-agnostic]",
  );
  process.exit(2);
}
const instances = readFileSync(values.dataset, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as SweScriptInstance);
const solve = new Set(
  values["solve-all"]
    ? instances.map((instance) => instance.instance_id)
    : values.solve.split(",").filter(Boolean),
);
const build = values["harness-agnostic"] ? buildHarnessSwePolicyConfig : buildSwePolicyConfig;
process.stdout.write(`${JSON.stringify(build(instances, solve), null, 2)}\n`);
