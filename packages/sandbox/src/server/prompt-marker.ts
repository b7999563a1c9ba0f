import { randomBytes } from "node:crypto";
import { partialPrefixLength } from "./process-support";

/**
 * The completion protocol of the bash tool. A command's end is the shell's prompt, and the
 * prompt renders `__RAAS_<nonce>_<exit code>__`, where the nonce is fresh per command and
 * reaches the shell only on the line that sources the command's script, after the script:
 *
 *     . '/run/bash-….sh'; { __raas_end 3f9c…; } 2>/dev/null
 *
 * While the command runs, the shell holds only the previous command's nonce (in
 * `__raas_m`, read by PS1 as `${__raas_m}$?__`), so nothing the command prints — `env`,
 * `set`, `echo "${PS1@P}"`, a file holding an old prompt — can carry the current marker.
 * The stored PS1 text never contains a marker at all; only prompt expansion assembles one.
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

/**
 * Startup file of the shell (`bash --rcfile`). It turns echo off before the first prompt,
 * keeps the shell's own lines out of `history`, and defines `__raas_end`, which records the
 * nonce without disturbing `$?`. The function is read-only so a command cannot remove it.
 */
export function bashRcScript(startNonce: string): string {
  return [
    "stty -echo -onlcr",
    "set +o history",
    `__raas_m='${PREFIX}${startNonce}_'`,
    `__raas_end() { local s=$?; __raas_m="${PREFIX}$1_"; return "$s"; }`,
    "readonly -f __raas_end",
    `PS1='\${__raas_m}$?${SUFFIX}'`,
    "PS2=''",
    "unset PROMPT_COMMAND",
    "",
  ].join("\n");
}

/**
 * The line typed into the terminal to run a command script. The nonce follows the script, so
 * the command cannot see it; the group's redirection keeps `set -x` from tracing the call.
 */
export function commandLine(scriptPath: string, nonce: string): string {
  return `. '${scriptPath}'; { __raas_end ${nonce}; } 2>/dev/null\n`;
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
