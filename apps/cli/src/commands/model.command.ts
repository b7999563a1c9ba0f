import { resolve } from "node:path";
import { checkFamilyConversations, loadDirectoryModelFamily } from "@raas/inference";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import { printModelCheck } from "./model-check-report";

interface CheckOptions {
  name?: string;
  conversations?: string;
  json?: boolean;
}

const DEFAULT_CONVERSATIONS = 100;

/** `raas model …`: what RaaS makes of a model's own tokenizer files before a run depends on them. */
export function declareModel(program: Command, context: CliContext): void {
  const model = program
    .command("model")
    .description("model families: a model's tokenizer files and chat template");
  model
    .command("check")
    .summary("probe a tokenizer directory and run generated conversations through it")
    .description(
      [
        "Reads a model's tokenizer directory (tokenizer.json, tokenizer_config.json or",
        "chat_template.jinja, generation_config.json: what vLLM loads, and what RAAS_TOKENIZER_DIR",
        "names), renders its chat template, and says what it found: the token that ends a turn, the",
        "stop tokens, the tool-call and reasoning formats, and each capability it could not establish.",
        "Then runs generated agent conversations token-in/token-out and reports turn pairs checked,",
        "prompts that did not extend the previous one, turns that did not parse back, parser crashes",
        "on malformed responses, and where the template would have re-rendered history differently.",
        "Exits 1 when the directory cannot serve or a check fails; missing capabilities are warnings.",
      ].join(" "),
    )
    .argument("<dir>", "the model's tokenizer directory")
    .option("--name <name>", "family name in the report (default the directory's name)")
    .option("--conversations <n>", `generated conversations to run (default ${DEFAULT_CONVERSATIONS})`)
    .option("--json", "print the report as JSON")
    .action(async (dir: string, options: CheckOptions) => {
      const count = Number(options.conversations ?? DEFAULT_CONVERSATIONS);
      if (!Number.isInteger(count) || count < 1 || count > 10_000) {
        throw new Error(
          `--conversations: expected a whole number from 1 to 10000, got ${options.conversations}`,
        );
      }
      const directory = resolve(dir);
      const loaded = await loadDirectoryModelFamily(directory, {
        ...(options.name !== undefined && { name: options.name }),
      });
      const report = checkFamilyConversations(loaded.family, {
        count,
        seed: 34,
        renderHistory: loaded.renderHistory,
        hasToolCalls: loaded.probe.toolCallFormat !== undefined,
      });
      printModelCheck({ directory, loaded, report }, options.json === true);
      const isSound =
        report.prefixViolations.length === 0 &&
        report.roundTripFailures.length === 0 &&
        report.parseCrashes.length === 0;
      context.setExitCode(isSound ? 0 : 1);
    });
}
