import { describe, expect, it } from "vitest";
import { ZImagePatterns } from "./env-fields";

describe("RAAS_SWE_IMAGE_PATTERN", () => {
  it("splits patterns on a colon before the next absolute path, so an OCI layout's :tag stays in its pattern", () => {
    expect(ZImagePatterns.parse("/img/{repo}.sif:/layouts/{repo}:{version}")).toEqual([
      "/img/{repo}.sif",
      "/layouts/{repo}:{version}",
    ]);
    expect(ZImagePatterns.parse("/layouts/swe:{instance_id}")).toBe("/layouts/swe:{instance_id}");
    expect(ZImagePatterns.parse(" /a/{name}.sif : /b/{name}: ")).toEqual(["/a/{name}.sif", "/b/{name}"]);
    expect(ZImagePatterns.parse("")).toBeUndefined();
  });

  it("refuses a relative pattern and an unknown placeholder, naming them", () => {
    const result = ZImagePatterns.safeParse("images/{repo}.sif:/img/{sha}");
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      '"images/{repo}.sif": expected an absolute path',
      'unknown placeholder {sha} in image pattern "/img/{sha}"',
    ]);
  });
});
