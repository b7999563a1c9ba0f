import { existsSync } from "node:fs";
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

/**
 * The image of an instance's sandboxes: the spec's `image`, else the first existing expansion of
 * `imagePattern`, else `image`, else undefined (the runtime's default). Throws when a pattern is
 * configured and none of its expansions exists: the instance's environment was not prepared.
 */
export function selectSweImage(
  instance: TSweInstance,
  spec: TSweRepoSpec,
  options: Pick<SweEvalOptions, "image" | "imagePattern">,
  exists: (path: string) => boolean = existsSync,
): string | undefined {
  if (spec.image !== undefined) return spec.image;
  const patterns = options.imagePattern === undefined ? [] : [options.imagePattern].flat();
  if (patterns.length === 0) return options.image;
  const candidates = patterns.map((pattern) => expandImagePattern(pattern, instance));
  const found = candidates.find((path) => exists(path));
  if (found !== undefined) return found;
  throw new Error(
    `no environment image for ${instance.instance_id}: none of ${candidates.join(", ")} exists`,
  );
}
