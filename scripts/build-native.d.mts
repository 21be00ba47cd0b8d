// Types for scripts/build-native.mjs (used by tests).
export declare function nodeHeaders(): string | undefined;
export declare function isGlibc(): boolean;
