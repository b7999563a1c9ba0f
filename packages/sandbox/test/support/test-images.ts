// The builder lives in `@raas/sandbox/testing` so that other packages' tests build the same images.
export { buildTestImages, type TestImages } from "../../src/testing/test-images";
