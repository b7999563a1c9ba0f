// `npm run simulator -- --port 8000 --policy scripted`: the labelled test double for a GPU model.
import { readSimulatorConfig, SIMULATOR_USAGE } from "./env";
import { loadSimulatorModelFamily } from "./simulator-model-family";
import { startSimulator } from "./start-simulator";

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(SIMULATOR_USAGE);
    return;
  }
  let options: ReturnType<typeof readSimulatorConfig>;
  try {
    options = readSimulatorConfig(argv, process.env);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${SIMULATOR_USAGE}`);
    process.exit(2);
  }
  let family: Awaited<ReturnType<typeof loadSimulatorModelFamily>>;
  try {
    family = await loadSimulatorModelFamily(options.modelFamily);
  } catch (error) {
    console.error(
      `the simulator cannot serve this model family: ${error instanceof Error ? error.message : error}`,
    );
    process.exit(2);
  }
  const simulator = await startSimulator({ ...options, family });
  console.log(
    JSON.stringify({
      msg: "simulator listening (test double, not a model)",
      url: simulator.url,
      policy: options.policy && "kind" in options.policy ? options.policy.kind : "scripted",
      modelFamily: family.family,
      endpoints: [
        "/v1/completions",
        "/v1/chat/completions",
        "/v1/models",
        "/generate",
        "/health",
        "/metrics",
      ],
    }),
  );
  const stop = () => {
    simulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
