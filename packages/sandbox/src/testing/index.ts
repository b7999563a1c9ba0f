export { buildTestImageVariants, VARIANT_MARKER_PATH } from "./test-image-variants";
export { buildTestImages, type TestImages } from "./test-images";
export { TmpfsDisk } from "./tmpfs-disk";
