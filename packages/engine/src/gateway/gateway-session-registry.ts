import { randomBytes } from "node:crypto";
import { DEFAULT_HARNESS_SAMPLING, type HarnessSamplingPolicy } from "../sampling/harness-sampling";

/** What a session token grants: model calls for one job, nothing else. */
export interface GatewaySession {
  token: string;
  jobId: string;
  openedAtMs: number;
  /** The job's sampling settings and what to do with a harness's own (never the harness's choice). */
  sampling: HarnessSamplingPolicy;
}

/**
 * Session tokens of the inference gateway, one per job. A token resolves only while its job
 * runs: `closeJob` (called when the job reaches a terminal state) forgets it, and nothing else
 * accepts it — it is not a control-plane token.
 */
export class GatewaySessionRegistry {
  private readonly byToken = new Map<string, GatewaySession>();
  private readonly byJob = new Map<string, GatewaySession>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The job's session, opened on first use (the same token for every call of one job). `sampling`
   * (default: the backend defaults, a harness's fields overridden) replaces the session's when given:
   * each RUN attempt opens it with the job's settings.
   */
  open(jobId: string, sampling?: HarnessSamplingPolicy): GatewaySession {
    const known = this.byJob.get(jobId);
    if (known) {
      if (sampling) known.sampling = sampling;
      return known;
    }
    const session = {
      token: `gw_${randomBytes(24).toString("base64url")}`,
      jobId,
      openedAtMs: this.now(),
      sampling: sampling ?? DEFAULT_HARNESS_SAMPLING,
    };
    this.byToken.set(session.token, session);
    this.byJob.set(jobId, session);
    return session;
  }

  /** The session of a token; null when unknown or its job has ended. */
  resolve(token: string): GatewaySession | null {
    return this.byToken.get(token) ?? null;
  }

  /** Ends the job's session; its token resolves no more. Returns whether there was one. */
  closeJob(jobId: string): boolean {
    const session = this.byJob.get(jobId);
    if (!session) return false;
    this.byJob.delete(jobId);
    this.byToken.delete(session.token);
    return true;
  }

  get size(): number {
    return this.byJob.size;
  }
}
