export { buildTestImages, type TestImageRecipe, type TestImages } from "./test-images";
export { TmpfsDisk } from "./tmpfs-disk";
