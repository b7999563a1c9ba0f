export * from "./tmpfs-disk";
