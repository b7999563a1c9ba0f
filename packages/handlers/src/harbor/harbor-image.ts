import { existsSync } from "node:fs";
import { join, posix, resolve } from "node:path";
import { imageReferenceExists } from "../swe/swe-image";
import {
  checkWorkdir,
  envPairs,
  HARBOR_WORKSPACE,
  type HostEnvironmentVerdict,
  instructionsOf,
  PREBUILT_IMAGE_PLACES,
  unquote,
} from "./harbor-dockerfile";

/**
 * A Harbor task's own image. Harbor builds `environment/Dockerfile` (or pulls
 * `[environment].docker_image`); RaaS can do neither, so a task runs on a prebuilt image it names:
 *
 * - `task.toml` `[environment].docker_image` as a path — absolute, or `./`/`../` relative to the
 *   task directory, an OCI layout optionally `:tag` — to a rootfs directory, an OCI layout or
 *   archive, a docker save archive or a SIF;
 * - else a file beside the task (in its directory or in `environment/`) named `image.sif`,
 *   `image.tar` (OCI or docker save archive) or `image.oci` (an OCI layout directory). These are
 *   never read into the payload; the payload carries the absolute path, so the sandbox hosts
 *   must see the task directory at the same path (a shared file system).
 *
 * A registry name (`python:3.13-slim`, `ghcr.io/o/x:1`) cannot be pulled: the task is refused
 * saying so, as is a task whose Dockerfile changes the image (`RUN`, …) and that ships none.
 */
export const PREBUILT_IMAGE_NAMES = ["image.sif", "image.tar", "image.oci"] as const;

/** Whether `docker_image` is a path (absolute or `./`, `../`) rather than a registry name. */
function isImagePath(reference: string): boolean {
  return reference.startsWith("/") || reference.startsWith("./") || reference.startsWith("../");
}

/**
 * The task's image as an absolute path (`docker_image` when a path, else a prebuilt image beside
 * the task), or null. Throws a sentence naming task.toml when `docker_image` names a path that
 * does not exist.
 */
export function findTaskImage(dir: string, dockerImage: string | null): string | null {
  if (dockerImage !== null && isImagePath(dockerImage)) {
    const reference = resolve(dir, dockerImage);
    if (!imageReferenceExists(reference))
      throw new Error(`environment.docker_image: ${dockerImage} does not exist (looked for ${reference})`);
    return reference;
  }
  if (dockerImage !== null) return null;
  for (const where of [dir, join(dir, "environment")]) {
    for (const name of PREBUILT_IMAGE_NAMES) {
      if (existsSync(join(where, name))) return join(where, name);
    }
  }
  return null;
}

/** Why a `docker_image` that is no path cannot be used here (null for a path or none). */
export function registryImageProblem(dockerImage: string | null): string | null {
  if (dockerImage === null || isImagePath(dockerImage)) return null;
  return `task.toml [environment].docker_image = "${dockerImage}" names a registry image, which RaaS cannot pull (sandbox hosts have no network): save it (docker save, skopeo copy or apptainer build) and place it ${PREBUILT_IMAGE_PLACES}`;
}

/**
 * What of the Dockerfile still matters when the task runs on its prebuilt image (which the
 * Dockerfile built): `WORKDIR` (the workdir the task's paths use; `[environment].workdir` wins)
 * and `ENV` with literal values (an OCI image's own environment is not read). Every other
 * instruction is built into the image and recorded as such. The image's workdir is copied into
 * the sandbox workspace at INIT, so nothing is copied from `environment/`.
 */
export function planImageEnvironment(
  dockerfile: string | null,
  configWorkdir: string | null,
): HostEnvironmentVerdict {
  let current = "/";
  let sawWorkdir = false;
  let baseImage: string | null = null;
  const env: Record<string, string> = {};
  const ignored: string[] = [];
  for (const { line, keyword, args } of dockerfile === null ? [] : instructionsOf(dockerfile)) {
    if (keyword === "FROM" && baseImage === null) baseImage = args.trim().split(/\s+/)[0] ?? "";
    else if (keyword === "WORKDIR" && !args.includes("$")) {
      current = posix.resolve(current, unquote(args.trim()));
      sawWorkdir = true;
    } else if (keyword === "ENV" && !args.includes("$")) {
      for (const [key, value] of envPairs(args) ?? []) env[key] = value;
    } else ignored.push(`line ${line}: ${keyword} (built into the image)`);
  }
  const workdir = configWorkdir ?? (sawWorkdir ? current : HARBOR_WORKSPACE);
  const badWorkdir = checkWorkdir(workdir);
  if (badWorkdir !== null) return { isHostCompatible: false, reason: badWorkdir };
  return {
    isHostCompatible: true,
    plan: {
      baseImage,
      workdir: posix.normalize(workdir).replace(/(.)\/$/, "$1"),
      env,
      copies: [],
      ignored,
    },
  };
}
