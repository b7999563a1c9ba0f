import type { TSwePayload } from "./swe-payload.schema";
import { repoPath } from "./swe-shell-scripts";

export const SWE_SYSTEM_PROMPT =
  "You are an expert software engineer resolving a GitHub issue in a Python repository inside a " +
  "sandbox without network access. Use the bash, python and editor tools to explore the code, " +
  "reproduce the problem, change the source so the issue is resolved, and check your change. " +
  "Edit non-test files only: hidden tests will be run against your changes. When you are done, " +
  "call submit. Your changes are taken from the repository's working tree (git diff), so do not " +
  "revert them.";

/** The task message: task id (the simulator's scripts key on it), where the repo is, the issue. */
export function sweUserMessage(payload: TSwePayload): string {
  const { instance } = payload;
  const hints =
    instance.hints_text.trim() === "" ? "" : `\n\n<hints>\n${instance.hints_text.trim()}\n</hints>`;
  return (
    `Task id: ${payload.taskId}\n\n` +
    `The repository ${instance.repo} is checked out at ${repoPath(instance.repo)} (commit ${instance.base_commit.slice(0, 12)}).\n` +
    `Resolve the following issue.\n\n<issue>\n${instance.problem_statement.trim()}\n</issue>${hints}`
  );
}
