import { describe, expect, it } from "vitest";
import { rewriteHarborPaths, verifierPathMap } from "./harbor-paths";

describe("rewriteHarborPaths", () => {
  const map = verifierPathMap("/app", "/workspace", "/tmp/r");

  it("rewrites whole path prefixes in one pass", () => {
    const script = 'cd /app && python3 /tests/t.py > /logs/verifier/reward.txt\nx="/app"\n[ -f /app/a ]';
    expect(rewriteHarborPaths(script, map)).toBe(
      'cd /workspace && python3 /tmp/r/tests/t.py > /tmp/r/logs/verifier/reward.txt\nx="/workspace"\n[ -f /workspace/a ]',
    );
  });

  it("leaves other paths that merely contain the prefix", () => {
    const text = "/srv/app /apples /app.d ~/app $HOME/tests /my/tests/x /testsuite https://h/app";
    expect(rewriteHarborPaths(text, map)).toBe(text);
  });

  it("does nothing when the workdir is already the workspace", () => {
    expect(rewriteHarborPaths("cat /workspace/a", [["/workspace", "/workspace"]])).toBe("cat /workspace/a");
  });
});
