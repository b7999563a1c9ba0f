import type { Command } from "commander";

/** A word the shell may offer, with one line saying what it is. */
interface CompletionWord {
  word: string;
  summary: string;
}

/** One command of the tree as a completion script needs it; the program itself has path "". */
interface CompletionNode {
  /** Subcommand names from the program down, joined by spaces ("jobs list"). */
  path: string;
  /** Its subcommands, then its long options (`--help` included). */
  words: CompletionWord[];
  /** Whether it takes operands (files, ids), so the shell may offer file names. */
  takesArguments: boolean;
}

/** A flag that takes a value, with its allowed values when the declaration lists them. */
interface CompletionValueOption {
  flag: string;
  choices: readonly string[];
}

/** What a completion script is generated from: every command and every flag that takes a value. */
export interface CompletionTree {
  program: string;
  nodes: CompletionNode[];
  valueOptions: CompletionValueOption[];
}

function summaryOf(command: Command): string {
  return command.summary() || command.description().split("\n")[0] || "";
}

function nodesOf(command: Command, path: string): CompletionNode[] {
  const words = [
    ...command.registeredArguments.flatMap((argument) =>
      (argument.argChoices ?? []).map((choice) => ({ word: choice, summary: argument.description })),
    ),
    ...command.commands.map((sub) => ({ word: sub.name(), summary: summaryOf(sub) })),
    ...command.options.flatMap((option) =>
      option.long && !option.hidden ? [{ word: option.long, summary: option.description }] : [],
    ),
    ...(command.commands.length > 0 ? [{ word: "help", summary: "display help for command" }] : []),
    { word: "--help", summary: "display help for command" },
  ];
  const node = {
    path,
    words,
    takesArguments: command.registeredArguments.some((argument) => !argument.argChoices),
  };
  return [
    node,
    ...command.commands.flatMap((sub) => nodesOf(sub, path ? `${path} ${sub.name()}` : sub.name())),
  ];
}

function valueOptionsOf(command: Command): CompletionValueOption[] {
  return [
    ...command.options.flatMap((option) =>
      option.long && (option.required || option.optional)
        ? [{ flag: option.long, choices: option.argChoices ?? [] }]
        : [],
    ),
    ...command.commands.flatMap(valueOptionsOf),
  ];
}

/** Reads the completion tree from the commander declarations, parents before children. */
export function completionTree(program: Command): CompletionTree {
  const byFlag = new Map(valueOptionsOf(program).map((option) => [option.flag, option]));
  return { program: program.name(), nodes: nodesOf(program, ""), valueOptions: [...byFlag.values()] };
}
