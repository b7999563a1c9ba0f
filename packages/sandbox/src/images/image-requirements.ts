import { existsSync } from "node:fs";
import { join } from "node:path";

/** What the execution server needs inside an image, as paths inside the sandbox. */
export interface ImageNeeds {
  /** The agent's shell (bash tool, handler commands); the server starts it with the sandbox. */
  shellPath: string;
  /** prlimit, when the process limit is applied inside. */
  prlimitPath?: string;
}

/**
 * Throws a sentence naming each thing the sandbox's server and tools need that the image
 * `reference` (unpacked at `rootfs`) lacks, instead of a sandbox that fails to start for a
 * reason nobody can read. Paths resolve through the image's own relative symlinks (`/bin` →
 * `usr/bin` on a merged-/usr image).
 */
export function assertImageHasTools(reference: string, rootfs: string, needs: ImageNeeds): void {
  const missing: string[] = [];
  if (!existsSync(join(rootfs, needs.shellPath))) {
    missing.push(`a shell at ${needs.shellPath} (the bash tool and handler commands run in it)`);
  }
  if (needs.prlimitPath !== undefined && !existsSync(join(rootfs, needs.prlimitPath))) {
    missing.push(`${needs.prlimitPath} (util-linux; applies the process limit)`);
  }
  if (missing.length > 0) {
    throw new Error(
      `image ${reference} cannot run the sandbox's tools: it lacks ${missing.join("; and ")}. Use an image with bash and util-linux (for example a Debian or Ubuntu base), or set the runtime's shellPath to a shell the image has`,
    );
  }
}
