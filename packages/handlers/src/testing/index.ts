export { codeUnittestForgeries, type Forgery, slugkitForgeries, tinystatsForgeries } from "./forgery-corpus";
export { buildSweImageFixture, SWE_TEST_IMAGE_RECIPE } from "./swe-image-fixture";
