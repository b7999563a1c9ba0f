export { type HostEnvFiles as ServerEnvFiles, loadHostEnvFiles as loadServerEnvFiles } from "@raas/compose";
