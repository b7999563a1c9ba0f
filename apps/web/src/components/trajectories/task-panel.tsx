import { Section } from "@raas/ui/section";
import type { TTokenBlock } from "./token-blocks";
import { TokenView } from "./token-view";
import styles from "./trajectory.module.css";
import type { TExportView } from "./trajectory-types";

/** Payload fields that hold the task's text, by handler (math, code, swe, free-form). */
const TASK_TEXT_FIELDS = ["problem", "prompt", "problem_statement", "question", "instruction"] as const;

/** The task's text from its payload, if a known field holds one. */
function taskText(payload: Record<string, unknown> | undefined): string | null {
  for (const field of TASK_TEXT_FIELDS) {
    const value = payload?.[field];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return null;
}

/** The task: its text, the full payload, and the prompt's tokens (greyed: never trained on). */
export function TaskPanel({
  payload,
  exported,
  promptBlock,
}: {
  payload: Record<string, unknown> | undefined;
  exported: TExportView | undefined;
  promptBlock: TTokenBlock | undefined;
}) {
  const text = taskText(payload);
  return (
    <Section id="task" title="Task" testId="task-panel">
      {text !== null ? (
        <pre className={styles.text} data-testid="task-text">
          {text}
        </pre>
      ) : null}
      <details>
        <summary>Payload (JSON)</summary>
        <pre className="json">{JSON.stringify(payload ?? {}, null, 2)}</pre>
      </details>
      {exported && promptBlock ? (
        <details>
          <summary>Prompt tokens ({promptBlock.end - promptBlock.start}, loss mask 0)</summary>
          <TokenView
            exported={exported}
            blocks={[promptBlock]}
            label="Prompt tokens"
            testId="prompt-tokens"
          />
        </details>
      ) : null}
    </Section>
  );
}
