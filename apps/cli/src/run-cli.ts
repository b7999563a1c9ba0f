import { readFileSync } from "node:fs";
import { CommanderError } from "commander";
import { z } from "zod";
import { createClient, describeError, type RaasClient } from "./client";
import { loadCliEnv } from "./env";
import { buildProgram, type ProgramOutput, type TGlobalOptions } from "./program";

/** Status for a mistyped command, as before the move to commander (other usage errors exit 1). */
const UNKNOWN_COMMAND_EXIT_CODE = 2;

const processOutput: ProgramOutput = {
  writeOut: (text) => process.stdout.write(text),
  writeErr: (text) => process.stderr.write(text),
};

/** The CLI's version, from its package.json. */
function cliVersion(): string {
  const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return z.object({ version: z.string() }).parse(JSON.parse(text)).version;
}

function exitCodeOf(error: CommanderError): number {
  return error.code === "commander.unknownCommand" ? UNKNOWN_COMMAND_EXIT_CODE : error.exitCode;
}

/**
 * Runs one `raas` invocation and resolves to its exit status. Every failure is one line on
 * stderr (`error: …`), never a stack trace. No arguments prints the help and exits 2.
 */
export async function runCli(argv: string[], output: ProgramOutput = processOutput): Promise<number> {
  let exitCode = 0;
  let url: string | undefined;
  let client: RaasClient | undefined;
  const program = buildProgram(
    {
      client: () => {
        if (client) return client;
        const env = loadCliEnv();
        const options = program.opts<TGlobalOptions>();
        url = options.url ?? env.RAAS_URL;
        client = createClient({ url, token: options.token ?? env.RAAS_TOKEN, dataDir: env.RAAS_DATA_DIR });
        return client;
      },
      setExitCode: (code) => {
        exitCode = code;
      },
    },
    cliVersion(),
    output,
  );
  if (argv.length === 0) {
    program.outputHelp();
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return exitCodeOf(error);
    output.writeErr(`error: ${describeError(error, url ?? "the server")}\n`);
    return 1;
  }
}
