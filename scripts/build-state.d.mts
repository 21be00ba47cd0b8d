// Types for scripts/build-state.mjs (used by tests and bin/countersign.mjs).
export declare const ROOT: string;
export declare function buildState(root?: string): { needed: boolean; reason: string };
export declare function build(root?: string): boolean;
export declare function ensureBuilt(root?: string): boolean;
