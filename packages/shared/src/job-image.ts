/**
 * Where a job's sandbox image comes from, beside its task's own (a SWE spec or image pattern, a
 * Harbor task's image): the payload's `image` (agent kinds), else its run's default, which a
 * run's member jobs carry in `metadata.defaultImage` (as they carry `metadata.share`), so it
 * reaches every kind without touching a payload schema. Pure: the handlers decide precedence.
 */
const DEFAULT_IMAGE_KEY = "defaultImage";

/** The metadata a run's member jobs carry for their sandboxes' image; none without one. */
export function runImageMetadata(run: { image: string | null }): Record<string, string> {
  return run.image === null ? {} : { [DEFAULT_IMAGE_KEY]: run.image };
}

/** The run's default image a job carries (an absolute path), or undefined. */
export function runImageOf(
  metadata: Readonly<Record<string, unknown>> | null | undefined,
): string | undefined {
  const image = metadata?.[DEFAULT_IMAGE_KEY];
  return typeof image === "string" && image.startsWith("/") ? image : undefined;
}
