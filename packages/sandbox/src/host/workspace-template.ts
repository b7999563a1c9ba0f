import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { SandboxTemplate } from "@raas/engine";
import { writeOwnerFile } from "./sandbox-dir-owner";
import { removeSandboxDirs } from "./sandbox-dirs";
import { copyTree, SpecialEntryError } from "./workspace-copy";

/**
 * A prepared workspace on the host (`<root>/workspace`), bound into no sandbox: the policy's
 * code cannot see or change it. Sandboxes start from copies of it (`cloneWorkspace`).
 */
export class WorkspaceTemplate implements SandboxTemplate {
  readonly id: string;
  readonly root: string;
  readonly #onRemoved: (template: WorkspaceTemplate) => void;
  #isRemoved = false;
  /** Sandboxes started for this template: the one that prepared it, then one per `createFrom`. */
  #sandboxes = 1;

  constructor(id: string, root: string, onRemoved: (template: WorkspaceTemplate) => void) {
    this.id = id;
    this.root = root;
    this.#onRemoved = onRemoved;
  }

  /** Host path of the kept workspace. */
  get workspace(): string {
    return templateWorkspace(this.root);
  }

  get isRemoved(): boolean {
    return this.#isRemoved;
  }

  /** Counts one more sandbox started from this template; returns how many it has had (its group's size so far). */
  countSandbox(): number {
    this.#sandboxes += 1;
    return this.#sandboxes;
  }

  async remove(): Promise<void> {
    if (this.#isRemoved) return;
    this.#isRemoved = true;
    await removeSandboxDirs(this.root);
    this.#onRemoved(this);
  }
}

/** Where a template's workspace lives below its root. */
export function templateWorkspace(root: string): string {
  return join(root, "workspace");
}

/**
 * Creates a template's root directory (private to this host user) with an owner file, so the
 * reaper of stale sandbox directories removes it if this process dies without cleaning up.
 */
export async function createTemplateRoot(
  baseDir: string,
  id: string,
  hostId: string | null = null,
): Promise<string> {
  const root = join(baseDir, id);
  await mkdir(root, { mode: 0o700 });
  await writeOwnerFile(root, hostId);
  return root;
}

/**
 * Copies a workspace tree into an existing (empty) directory, keeping modes, owners, times,
 * symlinks and the tree's own hard links (as `cp -a`), in this process (`copyTree`: no fork and
 * exec per member). Files are cloned copy-on-write where the file system can (btrfs, XFS): then
 * the copy costs metadata only; on others (ext4) it is a plain copy. A tree with a FIFO, socket
 * or device node is copied by `cp -a --reflink=auto` instead. Never hard links between copies:
 * those share inodes, so a write in place or a chmod in one member would show in its siblings
 * and in the template.
 */
export async function cloneWorkspace(source: string, destination: string, cpPath = "cp"): Promise<void> {
  try {
    await copyTree(source, destination);
    return;
  } catch (error) {
    if (!(error instanceof SpecialEntryError)) {
      throw new Error(
        `copying the template's workspace failed: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  await copyWithCp(source, destination, cpPath);
}

function copyWithCp(source: string, destination: string, cpPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      cpPath,
      ["-a", "--reflink=auto", "--", `${source}/.`, `${destination}/`],
      { env: { PATH: "/usr/bin:/bin", LC_ALL: "C" }, maxBuffer: 64 * 1024 },
      (error, _stdout, stderr) => {
        if (error)
          reject(new Error(`copying the template's workspace failed: ${stderr.trim() || error.message}`));
        else resolve();
      },
    );
  });
}
