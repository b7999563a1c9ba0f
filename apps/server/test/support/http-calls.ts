import { expect } from "vitest";

/** A server's answer: its status, and its body (parsed when it is JSON, else the text). */
export interface Answer<T> {
  status: number;
  body: T;
}

/**
 * Calls to the server at `url()` with the bearer token of `who` (a key of `tokens`): GET without
 * a body, POST with a JSON one. `ok` also expects a 2xx, naming the body when it is not.
 */
export function tokenCalls<Who extends string>(url: () => string, tokens: Readonly<Record<Who, string>>) {
  const call = async <T>(who: Who, path: string, body?: unknown): Promise<Answer<T>> => {
    const response = await fetch(`${url()}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // JSON Lines or plain text: kept as text.
    }
    return { status: response.status, body: parsed as T };
  };
  const ok = async <T>(who: Who, path: string, body?: unknown): Promise<T> => {
    const answer = await call<T>(who, path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body;
  };
  return { call, ok };
}

/** `ok` for one token: `rest(path)` GETs, `rest(path, body)` POSTs; a 2xx is expected. */
export function tokenRest(url: () => string, token: string) {
  const { ok } = tokenCalls(url, { token });
  return <T>(path: string, body?: unknown): Promise<T> => ok<T>("token", path, body);
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

/** POSTs `body` as JSON without a token: the status, the body parsed (null when not JSON) and its text. */
export async function postJson(
  url: string,
  body: unknown,
): Promise<{ status: number; body: Json; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Json = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, body: parsed, text };
}
