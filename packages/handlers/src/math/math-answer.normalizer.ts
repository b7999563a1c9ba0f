const DROPPED = [/\\left/g, /\\right/g, /\\displaystyle/g, /\\[,;:!]/g, /\\ /g, /\\quad/g, /\\qquad/g, /~/g];

/**
 * Normalizes a final answer for comparison: strips math delimiters, spacing commands, `\text{}`
 * wrappers, degree signs, dollar signs, a leading `x =`, trailing periods and whitespace; maps
 * `\dfrac`/`\tfrac` to `\frac`, `\cdot`/`\times` to `*`, `\div` to `/`, `\%` to `%`, and thousands
 * separators away (`1,000` → `1000`).
 */
export function normalizeMathAnswer(answer: string): string {
  let s = answer.trim();
  s = s
    .replace(/^\$+|\$+$/g, "")
    .replace(/^\\\(|\\\)$/g, "")
    .replace(/^\\\[|\\\]$/g, "");
  for (const pattern of DROPPED) s = s.replace(pattern, "");
  s = s.replace(/\\(text|textbf|mathrm|mathbf|mbox)\{([^{}]*)\}/g, "$2");
  s = s.replace(/\\[dt]frac/g, "\\frac");
  s = s.replace(/\\cdot|\\times/g, "*").replace(/\\div/g, "/");
  s = s
    .replace(/\^\s*\{?\\circ\}?/g, "")
    .replace(/°/g, "")
    .replace(/\bdegrees?\b/g, "");
  s = s.replace(/\\%/g, "%").replace(/\\\$/g, "").replace(/\$/g, "");
  s = s.replace(/\s+/g, "");
  const assignment = /^[a-zA-Z](_\{?\w+\}?)?=(.+)$/.exec(s);
  if (assignment?.[2] && !assignment[2].includes("=")) s = assignment[2];
  s = s.replace(/\.+$/, "");
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?%?$/.test(s)) s = s.replace(/,/g, "");
  return s;
}
