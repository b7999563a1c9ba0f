import { buildTestImages, type TestImages } from "@raas/sandbox/testing";

/** The package of the image-fixture repository (`test/swe/image-sources/chunky`). */
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
 * Debian trixie (Python 3.13) with what SWE evaluation runs in its sandbox (git, patch), and an
 * installed copy of the fixture's package in site-packages; built once per machine (see
 * `buildTestImages`).
 */
export function buildSweTestImages(): Promise<TestImages> {
  return buildTestImages({
    packages: ["python3", "git", "patch"],
    files: { [`usr/lib/python3/dist-packages/${FIXTURE_PACKAGE}/__init__.py`]: INSTALLED_COPY },
  });
}
