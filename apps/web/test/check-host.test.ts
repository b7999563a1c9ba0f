import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { dashboardAllowedHosts, refuseForeignHost } from "../src/server/check-host";

describe("the dashboard's Host check", () => {
  const allowed = dashboardAllowedHosts(["raas.example.org"]);

  it("serves loopback names, IP addresses, the machine's name and the configured names", () => {
    for (const host of [
      "localhost:3000",
      "127.0.0.1:3000",
      "[::1]:3000",
      "10.2.3.4:3000",
      `${hostname()}:3000`,
      "raas.example.org",
    ]) {
      expect(refuseForeignHost(host, allowed), host).toBeNull();
    }
  });

  it("answers 403 with a sentence to any other name, and to a request without Host", async () => {
    for (const host of ["attacker.example:3000", null]) {
      const refused = refuseForeignHost(host, allowed);
      expect(refused?.status).toBe(403);
      expect(await refused?.text()).toContain("add the name to RAAS_ALLOWED_HOSTS");
    }
  });
});
