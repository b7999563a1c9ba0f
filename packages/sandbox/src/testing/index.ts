export { TmpfsDisk } from "./tmpfs-disk";
