export { buildTestImages, type TestImages } from "./test-images";
export { TmpfsDisk } from "./tmpfs-disk";
