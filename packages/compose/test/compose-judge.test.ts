import { describe, expect, it } from "vitest";
import { parseJudgeBackendList } from "../src/compose-judge";

describe("parseJudgeBackendList (RAAS_JUDGE_BACKENDS)", () => {
  it("reads chat-completions servers, each naming its model", () => {
    expect(
      parseJudgeBackendList("http://judge-1:8000#Qwen/Qwen3-32B, sglang=http://judge-2:30000/#j"),
    ).toEqual({
      backends: [
        { id: "judge-1:8000", baseUrl: "http://judge-1:8000", modelName: "Qwen/Qwen3-32B" },
        { id: "judge-2:30000", baseUrl: "http://judge-2:30000", modelName: "j" },
      ],
      problems: [],
    });
    expect(parseJudgeBackendList("")).toEqual({ backends: [], problems: [] });
  });

  it("says what is wrong: no model, a NeMo-RL server, a backend named twice, credentials", () => {
    const { backends, problems } = parseJudgeBackendList(
      "http://a:1,nemo-rl=http://b:2#m,http://c:3#m,http://c:3#n,http://u:p@d:4#m",
    );
    expect(backends.map((b) => b.id)).toEqual(["c:3", "c:3"]);
    expect(problems).toEqual([
      expect.stringContaining("http://u:p@d:4".replace("u:p", "***")),
      '"http://a:1": a judge backend names its model after #, e.g. http://judge:8000#Qwen/Qwen3-32B',
      '"http://b:2": a judge backend serves /v1/chat/completions (vllm or sglang), not nemo-rl',
      '"c:3" is named twice',
    ]);
    expect(problems.join("\n")).not.toContain("u:p@");
  });
});
