/** One transaction built from an array plus `k` small functions looping over arrays of their own. */
export function loopsModule(k: number, variant?: "map" | "tx" | "param" | "let" | string): string;
/** A module of cached clients over a union of table names, with `n` functions reading and writing through them. */
export function cachedClientsModule(n: number): string;
/** A long module (about `lines` lines) with an SDK call every hundred lines or so. */
export function largeModule(lines?: number): string;
/** Key builders of wide template literals (`width` parts each) calling each other `levels` deep. */
export function wideKeyModule(width: number, levels?: number): string;
