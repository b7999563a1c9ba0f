import { describe, expect, it } from "vitest";
import {
  parseTrajectoryFilters,
  toTrajectoryListRequest,
  toTrajectoryQuery,
} from "./trajectory-filters.types";

describe("trajectory filters", () => {
  it("reads known filters from the query string and drops malformed ones", () => {
    const filters = parseTrajectoryFilters(
      new URLSearchParams(
        "runId=run_1&stepId=stp_2&taskId=%20t1%20&status=completed&failureKind=nope&minReward=0.5&maxReward=abc&kind=&cursor=job_9",
      ),
    );
    expect(filters).toEqual({
      runId: "run_1",
      stepId: "stp_2",
      taskId: "t1",
      status: "completed",
      minReward: 0.5,
      cursor: "job_9",
    });
    expect(parseTrajectoryFilters(new URLSearchParams("groupId=a%00b&maxReward=Infinity"))).toEqual({});
  });

  it("writes the query string in a stable order and round-trips", () => {
    const filters = { taskId: "t1", runId: "run_1", minReward: 0, failureKind: "agent" } as const;
    const query = toTrajectoryQuery(filters);
    expect(query).toBe("?runId=run_1&taskId=t1&failureKind=agent&minReward=0");
    expect(parseTrajectoryFilters(new URLSearchParams(query.slice(1)))).toEqual(filters);
    expect(toTrajectoryQuery({})).toBe("");
  });

  it("asks jobs.list for the step as its batch", () => {
    expect(toTrajectoryListRequest({ stepId: "stp_2", groupId: "grp_1", maxReward: 1 })).toEqual({
      batchId: "stp_2",
      groupId: "grp_1",
      maxReward: 1,
      limit: 25,
    });
  });
});
