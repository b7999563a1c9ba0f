import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failureOf } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { expandImagePattern, imageReferenceExists, selectSweImage } from "./swe-image";
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

  it("refuses to fall back when a pattern is configured but the instance's image was not prepared: a sandbox failure", () => {
    let caught: unknown;
    try {
      selectSweImage(instance, {}, { imagePattern: "/img/{instance_id}.sif" }, () => false);
    } catch (error) {
      caught = error;
    }
    expect(failureOf(caught)).toMatchObject({
      kind: "sandbox",
      cause: "infrastructure",
      message: expect.stringMatching(
        /no environment image for acme__widgets-12: none of \/img\/acme__widgets-12\.sif exists/,
      ),
    });
  });

  it("finds an OCI layout's tagged image named as path:tag, and only a tag the layout has", () => {
    const dir = mkdtempSync(join(tmpdir(), "raas-swe-layout-"));
    try {
      const layout = join(dir, "widgets");
      mkdirSync(layout);
      writeFileSync(join(layout, "oci-layout"), '{"imageLayoutVersion":"1.0.0"}');
      const manifest = (tag: string) => ({
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        digest: `sha256:${"0".repeat(64)}`,
        annotations: { "org.opencontainers.image.ref.name": tag },
      });
      writeFileSync(
        join(layout, "index.json"),
        JSON.stringify({ manifests: [manifest("2.1"), manifest("3.0")] }),
      );
      expect(imageReferenceExists(`${layout}:2.1`)).toBe(true);
      expect(imageReferenceExists(`${layout}:9.9`)).toBe(false);
      expect(imageReferenceExists(layout)).toBe(true);
      // A tag on a plain directory or a missing path names nothing.
      expect(imageReferenceExists(`${dir}:2.1`)).toBe(false);
      expect(imageReferenceExists(`${dir}/missing:2.1`)).toBe(false);
      const options = { imagePattern: [`${dir}/{name}.sif`, `${dir}/{name}:{version}`] };
      expect(selectSweImage(instance, {}, options)).toBe(`${layout}:2.1`);
      const other = parseSweInstance({ ...instance, version: "9.9" });
      expect(() => selectSweImage(other, {}, options)).toThrow(
        `none of ${dir}/widgets.sif, ${layout}:9.9 exists`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
