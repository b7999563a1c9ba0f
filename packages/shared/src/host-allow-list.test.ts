import { describe, expect, it } from "vitest";
import {
  defaultAllowedHosts,
  hostNameOf,
  isHostAllowed,
  parseAllowedHosts,
  ZAllowedHostsVariable,
} from "./host-allow-list";

describe("Host allow-list", () => {
  it("defaults to the loopback names, plus the machine's name when bound to every interface", () => {
    expect(defaultAllowedHosts("127.0.0.1", "gpu-7.cluster")).toEqual(["localhost", "127.0.0.1", "[::1]"]);
    expect(defaultAllowedHosts("0.0.0.0", "GPU-7.cluster")).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
      "gpu-7.cluster",
      "gpu-7",
    ]);
    expect(defaultAllowedHosts("raas.internal", "x")).toContain("raas.internal");
  });

  it("accepts allowed names with any port, IP literals and localhost; refuses other names and no Host", () => {
    const allowed = defaultAllowedHosts("127.0.0.1", "box");
    for (const host of ["localhost:3000", "127.0.0.1:8080", "[::1]:8080", "10.1.2.3:80", "app.localhost"]) {
      expect(isHostAllowed(host, allowed), host).toBe(true);
    }
    for (const host of [
      "attacker.example",
      "attacker.example:8080",
      "box",
      "127.0.0.1.nip.io",
      "",
      undefined,
    ]) {
      expect(isHostAllowed(host, allowed), String(host)).toBe(false);
    }
    expect(isHostAllowed("anything.example", ["*"])).toBe(true);
    expect(isHostAllowed("a.raas.example.org", [".raas.example.org"])).toBe(true);
    expect(isHostAllowed("raas.example.org.evil", [".raas.example.org"])).toBe(false);
  });

  it("parses RAAS_ALLOWED_HOSTS and names bad entries", () => {
    expect(parseAllowedHosts(" raas.example.org, .corp ,*,")).toEqual({
      hosts: ["raas.example.org", ".corp", "*"],
      problems: [],
    });
    expect(parseAllowedHosts("http://x:80").problems).toEqual([
      '"http://x:80": expected a host name without port or scheme (e.g. raas.example.org), .domain, or *',
    ]);
    expect(hostNameOf("Example.ORG.:443")).toBe("example.org");
  });

  it("reads RAAS_ALLOWED_HOSTS as an env field: unset is none, each bad entry an issue", () => {
    expect(ZAllowedHostsVariable.parse(undefined)).toEqual([]);
    expect(ZAllowedHostsVariable.parse("raas.example.org,*")).toEqual(["raas.example.org", "*"]);
    const bad = ZAllowedHostsVariable.safeParse("ok.example, http://x:80, y:1");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.message)).toEqual([
      '"http://x:80": expected a host name without port or scheme (e.g. raas.example.org), .domain, or *',
      '"y:1": expected a host name without port or scheme (e.g. raas.example.org), .domain, or *',
    ]);
  });
});
