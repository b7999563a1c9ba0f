import { requestFailure } from "@raas/shared";
import type { RestRoute } from "./rest-route.types";

interface CompiledRoute {
  route: RestRoute;
  segments: Array<{ literal: string } | { param: string }>;
  literalCount: number;
}

export type RouteMatch =
  | { kind: "found"; route: RestRoute; params: Record<string, string> }
  | { kind: "wrong-method"; allow: string[] }
  | { kind: "none" };

/** Matches method + path against route templates; literal segments beat `{param}` segments. */
export class RouteMatcher {
  readonly #compiled: CompiledRoute[];

  constructor(routes: readonly RestRoute[]) {
    this.#compiled = routes.map((route) => {
      const segments = splitPath(route.path).map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment)?.[1];
        return param ? { param } : { literal: segment };
      });
      return { route, segments, literalCount: segments.filter((s) => "literal" in s).length };
    });
  }

  /** Throws `BAD_REQUEST` when a path parameter is not valid percent-encoding. */
  match(method: string, path: string): RouteMatch {
    const parts = splitPath(path);
    let best: { compiled: CompiledRoute; params: Record<string, string> } | null = null;
    const allow = new Set<string>();
    for (const compiled of this.#compiled) {
      const params = matchSegments(compiled.segments, parts);
      if (params === null) continue;
      allow.add(compiled.route.method);
      if (compiled.route.method !== method) continue;
      if (best === null || compiled.literalCount > best.compiled.literalCount) best = { compiled, params };
    }
    if (best) return { kind: "found", route: best.compiled.route, params: best.params };
    if (allow.size > 0) return { kind: "wrong-method", allow: [...allow].sort() };
    return { kind: "none" };
  }
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

function matchSegments(segments: CompiledRoute["segments"], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if ("literal" in segment) {
      if (segment.literal !== part) return null;
    } else params[segment.param] = decodeSegment(part);
  }
  return params;
}

function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw requestFailure(
      "BAD_REQUEST",
      `the path segment "${part.slice(0, 100)}" is not valid percent-encoding`,
    );
  }
}
