/**
 * Reads a Llama 3.1 built-in tool call, `brave_search.call(query="…")`: an identifier, `.call(`,
 * keyword arguments whose values are Python literals (strings, numbers, True/False/None), `)`.
 * Returns the error text instead of throwing.
 */
export function readBuiltinCall(
  text: string,
): { name: string; arguments: Record<string, unknown> } | { problem: string } {
  const head = /^([A-Za-z_]\w*)\.call\(/.exec(text);
  if (!head) return { problem: "expected <tool>.call(<keyword>=<value>, …)" };
  const args: Record<string, unknown> = {};
  let i = head[0].length;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
  };
  skipSpace();
  while (text[i] !== ")") {
    const key = /^[A-Za-z_]\w*/.exec(text.slice(i, i + 200));
    if (!key) return { problem: `expected a keyword argument at offset ${i}` };
    i += key[0].length;
    skipSpace();
    if (text[i] !== "=") return { problem: `expected "=" after ${key[0]}` };
    i += 1;
    skipSpace();
    const literal = readLiteral(text, i);
    if ("problem" in literal) return literal;
    args[key[0]] = literal.value;
    i = literal.end;
    skipSpace();
    if (text[i] === ",") {
      i += 1;
      skipSpace();
    } else if (text[i] !== ")") {
      return {
        problem: i >= text.length ? "the call is cut off before its closing )" : `unexpected "${text[i]}"`,
      };
    }
  }
  if (text.slice(i + 1).trim() !== "") return { problem: "unexpected text after the closing )" };
  return { name: head[1]!, arguments: args };
}

const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "0": "\0",
};

function readLiteral(text: string, start: number): { value: unknown; end: number } | { problem: string } {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    let value = "";
    for (let i = start + 1; i < text.length; i += 1) {
      const char = text[i]!;
      if (char === quote) return { value, end: i + 1 };
      if (char === "\\" && i + 1 < text.length) {
        const next = text[i + 1]!;
        value += ESCAPES[next] ?? `\\${next}`;
        i += 1;
      } else {
        value += char;
      }
    }
    return { problem: "a string argument is never closed (the call may have been cut off)" };
  }
  const word = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|True|False|None)/.exec(text.slice(start, start + 64));
  if (!word) return { problem: `expected a string, number, True, False or None at offset ${start}` };
  const token = word[0];
  const value = token === "True" ? true : token === "False" ? false : token === "None" ? null : Number(token);
  return { value, end: start + token.length };
}
