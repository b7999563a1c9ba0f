/** How often the Backends page polls `backends.list` (and so samples the hit rate), in ms. */
export const BACKENDS_REFRESH_MS = 2_000;
