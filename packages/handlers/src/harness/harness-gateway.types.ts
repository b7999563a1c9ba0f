import type { HarnessSamplingPolicy } from "@raas/engine";
import type { TGatewayCallRecord } from "@raas/shared";

/** The host side of a job's inference gateway, as a harness reaches it from its sandbox. */
export interface HarnessGateway {
  /**
   * Serves the job's gateway session on a Unix socket in `hostDir` (a directory the sandbox
   * shares) and returns the socket's file name and the API key the harness sends. Every call of
   * the session samples with `sampling`'s settings, whatever the harness sends.
   */
  openBridge(
    jobId: string,
    hostDir: string,
    sampling: HarnessSamplingPolicy,
  ): Promise<{ socketName: string; apiKey: string; close(): Promise<void> }>;
  /** The model calls the job made through the gateway, in arrival order. */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
}
