import type { TSweInstance } from "./swe-instance.schema";
import type { TSweRepoSpec } from "./swe-repo-spec.schema";

/**
 * The spec of an instance: the `owner/name@version` entry (else the `owner/name` one) of
 * `specs`, with the job's own spec's fields over it, and the instance's `test_cmd` (when it has
 * one) as the test command over both.
 */
export function resolveSweSpec(
  instance: TSweInstance,
  specs: Readonly<Record<string, TSweRepoSpec>> = {},
  jobSpec: TSweRepoSpec = {},
): TSweRepoSpec {
  const configured = repoSpecFor(instance, specs);
  const testCmd = instanceTestCommand(instance);
  return { ...configured, ...jobSpec, ...(testCmd !== null && { testCommand: testCmd }) };
}

/** The instance's own `test_cmd` (a list runs its commands in order with `&&`), or null. */
function instanceTestCommand(instance: TSweInstance): string | null {
  const value = instance.test_cmd;
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (Array.isArray(value)) {
    const commands = value.filter((item): item is string => typeof item === "string" && item.trim() !== "");
    if (commands.length > 0) return commands.map((command) => command.trim()).join(" && ");
  }
  return null;
}

/** The `owner/name@version` entry of `specs`, else the `owner/name` one, else `{}`. */
export function repoSpecFor(
  instance: TSweInstance,
  specs: Readonly<Record<string, TSweRepoSpec>> = {},
): TSweRepoSpec {
  return (
    (instance.version !== null ? specs[`${instance.repo}@${instance.version}`] : undefined) ??
    specs[instance.repo] ??
    {}
  );
}
