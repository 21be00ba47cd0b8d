// Types for the helpers that scripts/start.mjs exports (used by tests).
export interface BinaryLookup {
  path: string | null;
  reason: string;
}
export declare function electronBinary(root?: string, env?: Record<string, string | undefined>): BinaryLookup;
export declare function hasDisplay(env?: Record<string, string | undefined>, platform?: string): boolean;
export interface ReadyLine {
  ready: true;
  api_url: string;
  app_url: string;
  receiver_url: string;
  console_url: string;
}
export declare function parseReadyLine(line: string): ReadyLine | null;
export declare function fetchFailureReason(output: string, code: number | null, timedOut: boolean): string;
export declare function fetchElectronOnce(root?: string): Promise<{ ok: boolean; reason: string }>;
export declare const DEV_ADMIN_KEY: string;
export declare function startEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function watchParent(onOrphaned: () => void, everyMs?: number): NodeJS.Timeout;
