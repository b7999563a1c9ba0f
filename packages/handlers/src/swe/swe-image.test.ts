import { describe, expect, it } from "vitest";
import { expandImagePattern, selectSweImage } from "./swe-image";
import { parseSweInstance } from "./swe-instance.schema";

const instance = parseSweInstance({
  instance_id: "acme__widgets-12",
  repo: "acme/widgets",
  base_commit: "a".repeat(40),
  problem_statement: "x",
  version: "2.1",
});

describe("environment images", () => {
  it("expands the placeholders of a path pattern and rejects unknown ones", () => {
    expect(expandImagePattern("/img/{repo}__{version}.sif", instance)).toBe("/img/acme__widgets__2.1.sif");
    expect(expandImagePattern("/img/{owner}/{name}/{instance_id}", instance)).toBe(
      "/img/acme/widgets/acme__widgets-12",
    );
    expect(() => expandImagePattern("/img/{sha}", instance)).toThrow(/unknown placeholder \{sha\}/);
  });

  it("prefers the spec's image, then the first existing expansion, then the default", () => {
    const exists = (path: string) => path === "/img/acme__widgets__2.1";
    const options = { image: "/default", imagePattern: ["/img/{instance_id}", "/img/{repo}__{version}"] };
    expect(selectSweImage(instance, { image: "/spec.sif" }, options, exists)).toBe("/spec.sif");
    expect(selectSweImage(instance, {}, options, exists)).toBe("/img/acme__widgets__2.1");
    expect(selectSweImage(instance, {}, { image: "/default" }, exists)).toBe("/default");
    expect(selectSweImage(instance, {}, {}, exists)).toBeUndefined();
  });

  it("refuses to fall back when a pattern is configured but the instance's image was not prepared", () => {
    expect(() =>
      selectSweImage(instance, {}, { imagePattern: "/img/{instance_id}.sif" }, () => false),
    ).toThrow(/no environment image for acme__widgets-12: none of \/img\/acme__widgets-12\.sif exists/);
  });
});
