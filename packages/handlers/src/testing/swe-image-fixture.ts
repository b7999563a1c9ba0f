import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSweData } from "../../data/swe/build-swe-data";
import { parseSweJsonl, type TSweInstance } from "../swe/swe-instance.schema";

/**
 * `raas-fixtures/chunky` (`data/swe/image-sources/`): its gold patch needs Python 3.13
 * (`itertools.batched(strict=)`), newer than the host's, so it resolves only in an image.
 */
const IMAGE_SOURCES = fileURLToPath(new URL("../../data/swe/image-sources/", import.meta.url));

/** Builds the image fixture's bundle into `<outDir>/bundles`; returns its one instance. */
export function buildSweImageFixture(outDir: string): TSweInstance {
  buildSweData(outDir, IMAGE_SOURCES);
  const [instance] = parseSweJsonl(readFileSync(join(outDir, "instances.jsonl"), "utf8"), "instances.jsonl");
  if (!instance) throw new Error(`no instance built from ${IMAGE_SOURCES}`);
  return instance;
}

/** The package of the image-fixture repository. */
const FIXTURE_PACKAGE = "chunky";

/**
 * An older release of the fixture repository's own package, installed in the image's
 * site-packages as a distribution would: a run that imported it instead of the checkout fails
 * every test, whichever the patch.
 */
const INSTALLED_COPY = `"""chunky 0.1 as installed in the image: never the one a SWE run should import."""
__version__ = "0.1.0"


def chunks(items, size, *, strict=False):
    raise RuntimeError("chunky was imported from the image's site-packages, not from the checkout")
`;

/**
 * The recipe (for `buildTestImages` of `@raas/sandbox/testing`) of the image the fixture runs on:
 * Debian trixie (Python 3.13) with what SWE evaluation runs in its sandbox (git, patch), and an
 * installed copy of the fixture's package in site-packages.
 */
export const SWE_TEST_IMAGE_RECIPE = {
  packages: ["python3", "git", "patch"],
  files: { [`usr/lib/python3/dist-packages/${FIXTURE_PACKAGE}/__init__.py`]: INSTALLED_COPY },
};
