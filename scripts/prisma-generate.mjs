// Generates the Prisma client into packages/db/src/generated, offline. Runs as the root
// `postinstall` (after `npm ci`) and by hand. Prisma's own install scripts are denied in
// package.json (they try to download engines); this script needs none of them: the client uses
// the JS query compiler ("engineType = client") and the CLI the JS schema engine (prisma.config.ts).
// Skips the work when schema and Prisma version are unchanged since the last generate.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemaPath = path.join(root, "prisma/schema.prisma");
const configPath = path.join(root, "prisma/prisma.config.ts");
const outDir = path.join(root, "packages/db/src/generated");
const stampPath = path.join(outDir, ".generate-stamp");
const cliPath = path.join(root, "node_modules/prisma/build/index.js");

if (!existsSync(cliPath)) {
  console.error("[prisma-generate] node_modules/prisma is missing; run `npm ci` first");
  process.exit(1);
}

const prismaVersion = JSON.parse(
  readFileSync(path.join(root, "node_modules/prisma/package.json"), "utf8"),
).version;
const stamp = createHash("sha256")
  .update(prismaVersion)
  .update(readFileSync(schemaPath))
  .update(readFileSync(configPath))
  .digest("hex");
const force = process.argv.includes("--force");

if (!force && existsSync(path.join(outDir, "client.ts")) && existsSync(stampPath)) {
  if (readFileSync(stampPath, "utf8").trim() === stamp) {
    console.log("[prisma-generate] client is up to date (use --force to regenerate)");
    process.exit(0);
  }
}

const result = spawnSync(process.execPath, [cliPath, "generate", "--config", configPath], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    // The CLI insists on a datasource URL (without one it falls back to downloading an engine);
    // generate never connects, so any well-formed URL will do.
    DATABASE_URL: "postgresql://offline@localhost:5432/offline",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    PRISMA_GENERATE_NO_HINTS: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
if (result.status !== 0) {
  console.error(`[prisma-generate] prisma generate failed (exit ${result.status})`);
  process.exit(result.status ?? 1);
}
writeFileSync(stampPath, `${stamp}\n`);
