import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { stageFailure } from "@raas/shared";
import type { TSweInstance } from "./swe-instance.schema";
import type { SweEvalOptions } from "./swe-options";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";

/** Fills `{instance_id}`, `{repo}` (`owner__name`), `{owner}`, `{name}`, `{version}` of an image pattern. */
export function expandImagePattern(pattern: string, instance: TSweInstance): string {
  const [owner, name] = instance.repo.split("/") as [string, string];
  const values: Record<string, string> = {
    instance_id: instance.instance_id,
    repo: `${owner}__${name}`,
    owner,
    name,
    version: instance.version ?? "",
  };
  return pattern.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`unknown placeholder ${whole} in image pattern "${pattern}"`);
    return value;
  });
}

const OCI_REF_NAME = "org.opencontainers.image.ref.name";

/**
 * Whether an image reference names something that exists: a path, or `layout:tag` — an OCI
 * layout directory holding an image of that tag (a tag follows the last `/`, as the image cache
 * reads it).
 */
export function imageReferenceExists(reference: string): boolean {
  if (existsSync(reference)) return true;
  const colon = reference.lastIndexOf(":");
  if (colon <= 0 || colon < reference.lastIndexOf("/")) return false;
  const layout = reference.slice(0, colon);
  const tag = reference.slice(colon + 1);
  try {
    if (!statSync(layout).isDirectory() || !existsSync(join(layout, "oci-layout"))) return false;
    const index = JSON.parse(readFileSync(join(layout, "index.json"), "utf8")) as {
      manifests?: Array<{ annotations?: Record<string, string> }>;
    };
    return (index.manifests ?? []).some((manifest) => manifest.annotations?.[OCI_REF_NAME] === tag);
  } catch {
    return false;
  }
}

/**
 * The image of an instance's sandboxes: the spec's `image`, else the first existing expansion of
 * `imagePattern` (a path, or an OCI layout's `path:tag`), else `image`, else undefined (the
 * runtime's default). When a pattern is configured and none of its expansions exists, the
 * instance's environment was not prepared on this host: a `sandbox` failure (setup, never the
 * grade), naming what was looked for.
 */
export function selectSweImage(
  instance: TSweInstance,
  spec: TSweRepoSpec,
  options: Pick<SweEvalOptions, "image" | "imagePattern">,
  exists: (reference: string) => boolean = imageReferenceExists,
): string | undefined {
  if (spec.image !== undefined) return spec.image;
  const patterns = options.imagePattern === undefined ? [] : [options.imagePattern].flat();
  if (patterns.length === 0) return options.image;
  const candidates = patterns.map((pattern) => expandImagePattern(pattern, instance));
  const found = candidates.find((path) => exists(path));
  if (found !== undefined) return found;
  throw stageFailure(
    "sandbox",
    `no environment image for ${instance.instance_id}: none of ${candidates.join(", ")} exists (RAAS_SWE_IMAGE_PATTERN / imagePattern names an image that was not prepared on this host)`,
  );
}
