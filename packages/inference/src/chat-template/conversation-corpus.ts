import { createSeededRandom } from "../model/family-check/seeded-random";
import type { ToolCall, ToolSpec } from "../model/model-family.types";

/** One model turn of a generated conversation and the messages that answered it. */
interface CorpusStep {
  thinking: string | null;
  content: string;
  toolCalls: ToolCall[];
  /** True when the response was cut at the length limit (no end-of-turn token). */
  isCut: boolean;
  /** Tool results (one per call) or a user message; empty after the last step. */
  observations: { role: "tool" | "user"; content: string }[];
}

/** A generated agent conversation, before any template or tokenizer sees it. */
export interface CorpusConversation {
  system: string | null;
  tools: ToolSpec[];
  enableThinking: boolean;
  firstUser: string;
  steps: CorpusStep[];
}

const PIECES = [
  "the",
  "answer",
  "is",
  "42.",
  "Let's",
  "check",
  "x = y + 1;",
  "def f(a, b):\n    return a * b",
  '"quoted"',
  "back\\slash",
  "tab\there",
  "naïve café",
  "中文字符",
  "日本語のテキスト",
  "🚀🔥",
  "👩‍💻",
  "مرحبا",
  "Ωμέγα",
  '{"json": [1, 2]}',
  "<b>html</b>",
  "  spaced  ",
  "\n",
  "\n\n",
  "line\r\nbreak",
  "emoji🙂inline",
  "ÅÄÖ",
  "1e-5",
  "$\\frac{1}{2}$",
  "`code`",
  "…",
  "—",
  "\u00a0nbsp",
];
const TOOL_NAMES = ["run_shell", "read_file", "search_web", "edit_file", "python", "get_weather"];
const KEYS = ["path", "query", "command", "options", "items", "depth", "név", "ключ", "flags", "value"];

/** A generator of varied conversations (seeded): what the template agreement tests feed both paths. */
export function generateConversations(count: number, seed: number): CorpusConversation[] {
  const random = createSeededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  const text = (maxWords: number): string => {
    const words = Array.from({ length: int(1, maxWords) }, () => pick(PIECES));
    let out = words.join(random() < 0.7 ? " " : "");
    if (random() < 0.05) out = out.repeat(int(20, 80)); // long text
    return out.trim() === "" ? "ok" : out;
  };

  const jsonValue = (depth: number): unknown => {
    const kind = depth > 2 ? int(0, 3) : int(0, 5);
    switch (kind) {
      case 0:
        return text(4);
      case 1:
        return pick([0, 1, -7, 42, 3.5, -0.25, 1_000_000, 0.1]);
      case 2:
        return pick([true, false, null]);
      case 3:
        return pick(["", "a\nb", 'quote " and \\', "ünïcödé ✓"]);
      case 4:
        return Array.from({ length: int(0, 3) }, () => jsonValue(depth + 1));
      default:
        return jsonObject(depth + 1);
    }
  };
  const jsonObject = (depth: number): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: int(0, 4) }, () => [pick(KEYS), jsonValue(depth)]));

  const tool = (name: string): ToolSpec => ({
    name,
    description: text(8),
    parameters: {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: int(0, 3) }, () => [
          pick(KEYS),
          { type: pick(["string", "integer"]), description: text(3) },
        ]),
      ),
      required: random() < 0.5 ? [] : [pick(KEYS)],
    },
  });

  return Array.from({ length: count }, () => {
    const tools =
      random() < 0.6 ? [...new Set(Array.from({ length: int(1, 3) }, () => pick(TOOL_NAMES)))].map(tool) : [];
    const enableThinking = random() < 0.6;
    const steps: CorpusStep[] = Array.from({ length: int(1, 4) }, () => {
      const toolCalls =
        tools.length === 0 || random() < 0.3
          ? []
          : Array.from({ length: int(0, 3) }, () => ({ name: pick(tools).name, arguments: jsonObject(0) }));
      return {
        thinking: enableThinking && random() < 0.8 ? text(20) : null,
        content: toolCalls.length > 0 && random() < 0.5 ? "" : text(15),
        toolCalls,
        isCut: random() < 0.1,
        observations: [],
      };
    });
    steps.forEach((step, i) => {
      if (i === steps.length - 1) return;
      step.observations =
        step.toolCalls.length > 0
          ? step.toolCalls.map(() => ({
              role: "tool" as const,
              content: random() < 0.25 ? `Error: ${text(6)}` : text(12),
            }))
          : [{ role: "user" as const, content: text(10) }];
    });
    return {
      system: random() < 0.8 ? text(12) : null,
      tools,
      enableThinking,
      firstUser: text(25),
      steps,
    };
  });
}
