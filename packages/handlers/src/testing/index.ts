export { codeUnittestForgeries, type Forgery, slugkitForgeries, tinystatsForgeries } from "./forgery-corpus";
export { buildSweImageFixture, buildSweTestImages } from "./swe-image-fixture";
