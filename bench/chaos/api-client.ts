// The bench's REST client of the deployment's server: the admin token, a timeout on every call
// (a server waiting on an absent database must not hang the bench), and the server's URL read
// anew on each call (the supervisor restarts it on the same port, but the bench never assumes).
import { ADMIN_TOKEN } from "../../apps/server/test/distributed/support/deployment";

const CALL_TIMEOUT_MS = 15_000;

export class ApiClient {
  constructor(private readonly baseUrl: () => string) {}

  async get<T>(path: string): Promise<T> {
    return this.#call<T>(path);
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>(path, body);
  }

  async #call<T>(path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl()}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
}
