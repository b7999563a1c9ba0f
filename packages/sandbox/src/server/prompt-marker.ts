import { randomBytes } from "node:crypto";
import { partialPrefixLength } from "./process-support";

/**
 * The completion protocol of the bash tool. A command's end is the shell's prompt, and the
 * prompt renders `__RAAS_<nonce>_<exit code>__`, where the nonce is fresh per command and
 * reaches the shell only on the line that sources the command's script, after the script:
 *
 *     . '/run/bash-….sh'; { __raas_end 3f9c…; } 2>/dev/null
 *
 * `__raas_end` captures `$?` first, then clears PROMPT_COMMAND and PS0 and only then writes
 * the literal marker into PS1; it is made of assignments only (a command could shadow `local`,
 * `return` or `set` with functions) and is read-only. If a command froze any of those variables,
 * an assignment fails, bash abandons the line and no marker appears (the call times out; it is
 * never misreported). PS4 (evaluated by `set -x` inside `__raas_end`) and BASH_ALIASES are
 * read-only, and the builtins that could run code between the script and the marker or read
 * the typed line — `trap` (DEBUG/RETURN/ERR traps), `exec`, `alias`, `history`, `fc`, and
 * `enable` itself — are disabled in this shell. While the command runs the shell holds only
 * the previous command's marker, so nothing the command prints (`env`, `set`, an old prompt in
 * a file, a hand-made marker) can end it, and the shell is not dumpable (the runtime starts an
 * execute-only copy), so other processes cannot read the typed line from its memory.
 */

const PREFIX = "__RAAS_";
const SUFFIX = "__";
const STATUS = /^(\d{1,3})__/;
const INCOMPLETE_STATUS = /^\d{0,3}_?$/;

/** A fresh nonce for one command (48 random bits, hex). */
export function createCommandNonce(): string {
  return randomBytes(6).toString("hex");
}

/** The marker the prompt renders after a command with `nonce` exits with `exitCode`. */
export function renderMarker(nonce: string, exitCode: number): string {
  return `${PREFIX}${nonce}_${exitCode}${SUFFIX}`;
}

/** Builtins disabled in the agent's shell, each with the reason a command gets when it tries one. */
const DISABLED_BUILTINS: Record<string, string> = {
  trap: "traps are not available in the agent's interactive shell; put the commands in a script and run it with bash",
  exec: "exec is not available in the agent's interactive shell; run the program directly, or use a script",
  alias: "aliases are not available in the agent's shell; define a function instead",
  history: "history is not kept in the agent's shell",
  fc: "history is not kept in the agent's shell",
};

/**
 * Startup file of the shell (`bash --rcfile`). It turns echo off before the first prompt,
 * keeps the shell's own lines out of history, defines the read-only `__raas_end`, freezes the
 * prompt variables and disables the builtins that could forge a marker (see the module comment).
 */
export function bashRcScript(startNonce: string): string {
  const stubs = Object.entries(DISABLED_BUILTINS).map(
    ([name, reason]) =>
      `${name}() { printf '%s\\n' ${shellWord(`bash: ${name}: ${reason}`)} >&2; return 2; }`,
  );
  const names = Object.keys(DISABLED_BUILTINS).join(" ");
  return [
    "stty -echo -onlcr",
    "set +o history",
    "shopt -u expand_aliases",
    `__raas_end() { __raas_s=$?; PROMPT_COMMAND=(); PS0=''; PS1="${PREFIX}\${1}_\${__raas_s}${SUFFIX}"; }`,
    // Gives the next command the previous one's `$?` (the marker is rendered before it runs).
    `__raas_rc() { return "$__raas_s"; }`,
    "__raas_s=0",
    "unset PROMPT_COMMAND",
    `PS1='${renderMarker(startNonce, 0)}'`,
    "PS2=''",
    "PS4='+ '",
    "readonly PS4 BASH_ALIASES",
    ...stubs,
    `readonly -f __raas_end __raas_rc ${names}`,
    `enable -n ${names}`,
    "enable -n enable",
    "",
  ].join("\n");
}

function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The line typed into the terminal to run a command script: restore `$?`, source the script,
 * record the marker. The nonce follows the script, so the command cannot see it; the groups'
 * redirections keep `set -x` from tracing the bookkeeping, and the backslashes keep aliases out.
 */
export function commandLine(scriptPath: string, nonce: string): string {
  return `{ \\__raas_rc; } 2>/dev/null; \\. '${scriptPath}'; { \\__raas_end ${nonce}; } 2>/dev/null\n`;
}

export type MarkerScan =
  /** A marker of an accepted nonce starts at `index`; the prompt ends at `end`. */
  | { kind: "found"; index: number; end: number; nonce: string; exitCode: number }
  /** No marker yet: `text.slice(0, safeLength)` is plain output; the rest may start one. */
  | { kind: "pending"; safeLength: number };

/**
 * Finds the first marker of one of `nonces` in `text`. Markers of other nonces (forged, or
 * left over from earlier commands) are plain output. A tail that could still become an
 * accepted marker once more data arrives is held back.
 */
export function scanForMarker(text: string, nonces: readonly string[]): MarkerScan {
  let found: Extract<MarkerScan, { kind: "found" }> | undefined;
  let safeLength = text.length;
  for (const nonce of nonces) {
    const token = `${PREFIX}${nonce}_`;
    let from = 0;
    let held = false;
    for (let at = text.indexOf(token, from); at >= 0; at = text.indexOf(token, from)) {
      const rest = text.slice(at + token.length);
      const status = STATUS.exec(rest);
      if (status) {
        if (!found || at < found.index) {
          const end = at + token.length + status[0].length;
          found = { kind: "found", index: at, end, nonce, exitCode: Number(status[1]) };
        }
        break;
      }
      if (INCOMPLETE_STATUS.test(rest)) {
        safeLength = Math.min(safeLength, at);
        held = true;
        break;
      }
      from = at + 1;
    }
    if (!held) safeLength = Math.min(safeLength, text.length - partialPrefixLength(text, token));
  }
  return found ?? { kind: "pending", safeLength };
}
