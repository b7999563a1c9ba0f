import { z } from "zod";

/** A node label: 1-64 letters, digits or `_ . : -`, starting with a letter or digit (e.g. `apptainer`). */
const WORKER_LABEL_PATTERN = /^[A-Za-z0-9][\w.:-]{0,63}$/;

/**
 * `RAAS_WORKER_LABELS` as an env.ts field (server and worker alike): comma-separated node labels,
 * blanks and repeats dropped, each bad entry a validation issue naming it. Unset or empty: none.
 */
export const ZWorkerLabelsVariable = z
  .string()
  .optional()
  .transform((text, ctx): string[] => {
    const labels: string[] = [];
    for (const raw of (text ?? "").split(",")) {
      const label = raw.trim();
      if (label === "" || labels.includes(label)) continue;
      if (WORKER_LABEL_PATTERN.test(label)) labels.push(label);
      else {
        ctx.addIssue({
          code: "custom",
          message: `"${label.slice(0, 80)}" is not a label: use 1-64 letters, digits or _ . : - starting with a letter or digit`,
        });
      }
    }
    return labels;
  });
