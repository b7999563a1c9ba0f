import type { EnvironmentRecord, EnvironmentStore } from "@raas/engine";

/** What registration reads of an environment directory on the server. */
interface InspectedEnvironment {
  /** The handler kind of its tasks (`harbor`, `reward-fn`, `judge`). */
  kind: string;
  /** Its own name (the manifest's, or the directory's). */
  name: string;
  description: string | null;
  taskCount: number;
}

/**
 * The environment registry behind the `environments.*` procedures. Type-only: the app hands in
 * the store (Prisma or in memory) and `inspect`, which reads a directory on the server whole (the
 * handlers' loaders) and throws a `VALIDATION_FAILED` failure naming the file and the field.
 */
export interface ControlPlaneEnvironments {
  store: EnvironmentStore;
  inspect(path: string): Promise<InspectedEnvironment>;
  /** Names a registered environment may not take (the server's shipped datasets). */
  reservedNames(): Promise<readonly string[]>;
}

export type { EnvironmentRecord };
