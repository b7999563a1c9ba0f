import { createRaasLogger, DistributedStoreError, SandboxUnavailableError } from "@raas/compose";
import { configFromEnv } from "./config-from-env";
import { EnvError, loadServerEnv, type TServerEnv } from "./env";
import { loadServerEnvFiles, type ServerEnvFiles } from "./env-files";
import { startServer } from "./server";
import { saveAdminToken, writeToTerminal } from "./terminal-only";

/** Connection errors that mean the database is not there (as opposed to a bug). */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ETIMEDOUT", "EAI_AGAIN"]);

async function main(): Promise<void> {
  let env: TServerEnv;
  let files: ServerEnvFiles;
  try {
    env = loadServerEnv();
    files = await loadServerEnvFiles(env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createRaasLogger(env.LOG_LEVEL, {
    secrets: [
      env.RAAS_ADMIN_TOKEN,
      env.RAAS_TRAINER_TOKEN,
      env.RAAS_VIEWER_TOKEN,
      ...env.RAAS_TRAINER_TOKENS,
    ],
  });
  const running = await startServer({ ...configFromEnv(env, files), logger }).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHABLE.has(code)) {
      // Only after RAAS_STORE_WAIT_MS of waiting for it. No stack, and no URL: it may carry a password.
      console.error(
        `the server could not start: ${(error as Error).message} — is the PostgreSQL of DATABASE_URL running and reachable from this machine?`,
      );
      process.exit(2);
    }
    if (!(error instanceof SandboxUnavailableError || error instanceof DistributedStoreError)) throw error;
    console.error(error.message);
    process.exit(2);
  });

  const lines = [`RaaS control plane listening on ${running.url}`];
  lines.push(
    `  REST: ${running.url}/api/v1   OpenAPI: ${running.url}/openapi.json   tRPC: ${running.url}/trpc`,
  );
  lines.push(
    `  metrics: ${running.url}/metrics   health: ${running.url}/health   store: ${running.storeKind}   queue: ${running.queueKind}`,
  );
  const backends = running.inference.listBackends();
  lines.push(
    backends.length > 0
      ? `  inference backends: ${backends.map((b) => `${b.id} (${b.kind}, ${b.modelName})`).join(", ")}`
      : "  inference backends: none yet; set RAAS_BACKENDS=vllm=http://host:8000 or POST /api/v1/backends (admin)",
  );
  lines.push(
    `  handlers: ${running.engine.handlerKinds().join(", ")}   sandboxes: ${running.sandboxRuntime.name}`,
  );
  // A generated admin token is saved owner-only and shown on the terminal alone: stderr is this
  // server's log (a file under a service manager or `2> log`), and a log must never hold a token.
  let generatedToken: string | null = null;
  if (running.isAdminTokenGenerated && running.auth.adminToken) {
    generatedToken = running.auth.adminToken;
    const file = saveAdminToken(env.RAAS_DATA_DIR, generatedToken);
    lines.push(
      `  no RAAS_ADMIN_TOKEN/RAAS_TRAINER_TOKEN set; generated an admin token for this run, saved in ${file} (owner-only; printed on the terminal only, never in this log)`,
    );
  } else {
    const roles = (["adminToken", "trainerToken", "viewerToken"] as const).filter((key) => running.auth[key]);
    lines.push(`  tokens configured: ${roles.map((key) => key.replace("Token", "")).join(", ")}`);
  }
  lines.push(
    `  reads ${running.auth.requireViewerToken ? "need a viewer token" : "are open"}; writes need a trainer or admin token`,
  );
  process.stderr.write(`${lines.join("\n")}\n`);
  if (generatedToken !== null) writeToTerminal(`  admin token: Authorization: Bearer ${generatedToken}\n`);

  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(130);
    }
    logger.info({ signal }, "shutting down");
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
