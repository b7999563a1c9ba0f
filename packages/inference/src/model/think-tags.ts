/** Splits `<think>…</think>` off a response; the opening tag may sit in the prompt already. */
export function splitThinkTags(text: string): { thinking: string | null; rest: string } {
  const end = text.indexOf("</think>");
  if (end === -1) return { thinking: null, rest: text };
  const start = text.lastIndexOf("<think>", end);
  const thinking = text.slice(start === -1 ? 0 : start + "<think>".length, end);
  return { thinking: thinking.replace(/^\n+|\n+$/g, ""), rest: text.slice(end + "</think>".length) };
}
