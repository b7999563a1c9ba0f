/**
 * Evaluates a normalized, simple LaTeX arithmetic expression to a number: decimals, `\frac{a}{b}`
 * (also `\frac12`), `\sqrt{x}`, `\sqrt[n]{x}`, `\pi`, `^`, `*`, `/`, `+`, `-`, parentheses, braces
 * and implicit multiplication (`2\sqrt{3}`, `3\pi`). Returns null for anything else (variables,
 * sets, text), so callers fall back to string comparison.
 */
export function evaluateLatexNumber(expression: string): number | null {
  const parser = new Parser(expression);
  try {
    const value = parser.parseExpression();
    if (!parser.atEnd()) return null;
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

class Parser {
  #pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.#pos >= this.text.length;
  }

  parseExpression(): number {
    let value = this.parseTerm();
    for (;;) {
      const c = this.peek();
      if (c === "+") {
        this.#pos += 1;
        value += this.parseTerm();
      } else if (c === "-") {
        this.#pos += 1;
        value -= this.parseTerm();
      } else return value;
    }
  }

  parseTerm(): number {
    let value = this.parseUnary();
    for (;;) {
      const c = this.peek();
      if (c === "*") {
        this.#pos += 1;
        value *= this.parseUnary();
      } else if (c === "/") {
        this.#pos += 1;
        value /= this.parseUnary();
      } else if (c !== null && this.startsFactor()) {
        value *= this.parsePower(); // implicit multiplication
      } else return value;
    }
  }

  parseUnary(): number {
    const c = this.peek();
    if (c === "-") {
      this.#pos += 1;
      return -this.parseUnary();
    }
    if (c === "+") {
      this.#pos += 1;
      return this.parseUnary();
    }
    return this.parsePower();
  }

  parsePower(): number {
    const base = this.parseAtom();
    if (this.peek() !== "^") return base;
    this.#pos += 1;
    // Lenient: `2^10` reads as 2^{10} (what a model writing plain text means).
    const isNegative = this.peek() === "-";
    if (isNegative) this.#pos += 1;
    const exponent = this.parseAtom();
    return base ** (isNegative ? -exponent : exponent);
  }

  parseAtom(): number {
    const c = this.peek();
    if (c === null) throw new Error("unexpected end");
    if (c === "(" || c === "{") {
      const close = c === "(" ? ")" : "}";
      this.#pos += 1;
      const value = this.parseExpression();
      this.expect(close);
      return value;
    }
    if (/[0-9.]/.test(c)) return this.parseNumber();
    if (this.text.startsWith("\\frac", this.#pos)) {
      this.#pos += 5;
      const numerator = this.parseArgument();
      const denominator = this.parseArgument();
      return numerator / denominator;
    }
    if (this.text.startsWith("\\sqrt", this.#pos)) {
      this.#pos += 5;
      let index = 2;
      if (this.peek() === "[") {
        this.#pos += 1;
        index = this.parseExpression();
        this.expect("]");
      }
      const radicand = this.parseArgument();
      return index === 2 ? Math.sqrt(radicand) : Math.sign(radicand) * Math.abs(radicand) ** (1 / index);
    }
    if (this.text.startsWith("\\pi", this.#pos)) {
      this.#pos += 3;
      return Math.PI;
    }
    throw new Error(`unexpected ${c}`);
  }

  /** A braced group or a single digit (as in `\frac12`). */
  parseArgument(): number {
    return this.peek() === "{" ? this.parseAtom() : this.parseSingle();
  }

  parseSingle(): number {
    const c = this.peek();
    if (c !== null && /[0-9]/.test(c)) {
      this.#pos += 1;
      return Number(c);
    }
    return this.parseAtom();
  }

  parseNumber(): number {
    const match = /^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?/i.exec(this.text.slice(this.#pos));
    if (!match) throw new Error("bad number");
    this.#pos += match[0].length;
    return Number(match[0]);
  }

  startsFactor(): boolean {
    const c = this.peek();
    if (c === "(" || c === "{" || (c !== null && /[0-9.]/.test(c))) return true;
    return ["\\frac", "\\sqrt", "\\pi"].some((name) => this.text.startsWith(name, this.#pos));
  }

  peek(): string | null {
    return this.text[this.#pos] ?? null;
  }

  expect(c: string): void {
    if (this.peek() !== c) throw new Error(`expected ${c}`);
    this.#pos += 1;
  }
}
