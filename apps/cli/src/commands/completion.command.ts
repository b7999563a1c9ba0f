import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import { bashCompletionScript } from "../completion/bash-completion";
import { completionTree } from "../completion/command-tree";
import { zshCompletionScript } from "../completion/zsh-completion";

const SHELLS = { bash: bashCompletionScript, zsh: zshCompletionScript } as const;

/** `raas completion bash|zsh`: a script generated from the program's own declarations. */
export function declareCompletion(program: Command, _context: CliContext): void {
  program
    .command("completion")
    .summary("print a shell completion script (bash or zsh)")
    .description(
      "Prints a completion script for every command and option, from the same declarations as --help.\n\n" +
        "bash: source <(raas completion bash)   zsh (after compinit): source <(raas completion zsh)",
    )
    .addArgument(program.createArgument("<shell>", "bash or zsh").choices(Object.keys(SHELLS)))
    .action((shell: keyof typeof SHELLS) => {
      const write = program.configureOutput().writeOut ?? ((text: string) => process.stdout.write(text));
      write(SHELLS[shell](completionTree(program)));
    });
}
