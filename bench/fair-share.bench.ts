// `npm run bench -- fair-share [--jobs 250] [--warm-up 40] [--measured 160] [--requests 200] [--redis redis://…]`
// Fair sharing between two runs of shares 3:1, measured in real time where the tests assert only
// order and counts: slot-time of jobs admitted through Redis to a worker engine, and in-flight time
// of generation requests through the routed pool against the simulator. Target: 3 ± 10 %
// (`redisSlotTimeShareError`, `inflightTimeShareError` = |ratio / 3 - 1| <= 0.1).
import { parseArgs } from "node:util";
import type { Bench, BenchRow } from "./bench.types";
import { measureInflightShare } from "./fair-share/inflight-share";
import { measureRedisAdmission } from "./fair-share/redis-admission";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

const round3 = (value: number) => Math.round(value * 1_000) / 1_000;

const bench: Bench = {
  name: "fair-share",
  description:
    "two runs of shares 3:1: slot-time through the Redis admission (control plane + worker) and in-flight time through the routed pool on the simulator",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        jobs: { type: "string", default: "250" },
        "warm-up": { type: "string", default: "40" },
        measured: { type: "string", default: "160" },
        requests: { type: "string", default: "200" },
        redis: { type: "string", default: "redis://127.0.0.1:6379" },
      },
    });
    const config = {
      jobsPerRun: Number(values.jobs),
      warmUp: Number(values["warm-up"]),
      measured: Number(values.measured),
      requests: Number(values.requests),
    };
    const redis = await measureRedisAdmission({ url: values.redis as string, ...config });
    const inflight = await measureInflightShare({ requests: config.requests });
    const rows: BenchRow[] = [
      {
        name: "slot-time, Redis admission",
        ratio: round3(redis.slotTimeRatio),
        jobsEnded: redis.jobsEnded,
        windowMs: Math.round(redis.windowMs),
      },
      { name: "in-flight time, routed pool", ratio: round3(inflight.timeRatio), requests: inflight.requests },
    ];
    const shareError = (ratio: number) => round3(Math.abs(ratio / 3 - 1));
    const figures = {
      redisSlotTimeShareError: shareError(redis.slotTimeRatio),
      inflightTimeShareError: shareError(inflight.timeRatio),
    };
    const isMet = Object.entries(figures).every(([key, figure]) =>
      meetsTarget(targetOf("fair-share", key), figure),
    );
    return {
      bench: "fair-share",
      description: bench.description,
      rows,
      summary: {
        redisSlotTimeRatio: round3(redis.slotTimeRatio),
        inflightTimeRatio: round3(inflight.timeRatio),
        inflightTokenRatio: round3(inflight.tokenRatio),
        ...figures,
        targetsMet: isMet,
      },
      config,
    };
  },
};

export default bench;
