// The one typed contract between the console page and the desktop shell: what only the
// desktop can do (open a link in the system browser, native save/open dialogs, secrets
// in the OS keychain, app facts). The preload exposes exactly these functions, frozen,
// as `window.countersign`; the main process registers exactly these channels and checks
// the sender frame of every call. Imported by the main process, the preload and the
// renderer (tsconfig.web.json includes src-shared), so: no Node or DOM types here.
//
// In the headless console (a plain browser) `window.countersign` is undefined: the
// renderer must treat every desktop feature as optional.

/** IPC channel names, one per bridge function. */
export const IPC_CHANNELS = {
  openExternal: 'countersign:open-external',
  saveExport: 'countersign:save-export',
  openImport: 'countersign:open-import',
  setSecret: 'countersign:secret-set',
  getSecret: 'countersign:secret-get',
  deleteSecret: 'countersign:secret-delete',
  secretStorageInfo: 'countersign:secret-storage-info',
  appInfo: 'countersign:app-info',
} as const;

export type IpcName = keyof typeof IPC_CHANNELS;

/** Limits checked in the main process (the renderer may check them first for a nicer message). */
export const IPC_LIMITS = {
  /** openExternal: https only, at most this many characters. */
  urlLength: 2048,
  /** saveExport: file contents (characters of text). */
  exportChars: 50 * 1024 * 1024,
  /** openImport: the chosen file, in bytes. */
  importBytes: 20 * 1024 * 1024,
  suggestedNameLength: 120,
  secretValueLength: 8192,
} as const;

/**
 * Secret names: the ngrok authtoken and one per webhook secret, e.g. `ngrok_authtoken`,
 * `webhook:wh_3hK9…`: letters, digits and `_ . : -`, 1 to 100 characters.
 */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.:-]{1,100}$/;
/** The secret the desktop reads at start to authenticate the ngrok tunnel (when NGROK_AUTHTOKEN is unset). */
export const NGROK_AUTHTOKEN_SECRET = 'ngrok_authtoken';
/** Conventional name for a subscription's signing secret. */
export function webhookSecretName(subscriptionId: string): string {
  return `webhook:${subscriptionId}`;
}

/** Where secrets are kept, said plainly so that the console can show it. */
export interface SecretStorageInfo {
  /** Electron's safeStorage can encrypt at all; when false, setSecret refuses. */
  available: boolean;
  /**
   * Linux: Chromium's selected backend ('gnome_libsecret', 'kwallet5', …). 'basic_text'
   * means NO real keychain: values are obfuscated with a fixed key, not protected.
   * Other systems: 'keychain' (macOS) or 'dpapi' (Windows).
   */
  backend: string;
  /** True only when an OS keychain really protects the values. */
  protectedByKeychain: boolean;
  /** One sentence for a person, e.g. "No OS keychain found: secrets are stored with a fixed key". */
  note: string;
}

export interface AppInfo {
  name: string;
  version: string;
  electron: string;
  chrome: string;
  node: string;
  platform: string;
  /** The service's data folder (store, history). */
  dataDir: string;
  /** Electron's user-data folder (window state, encrypted secrets). */
  userDataDir: string;
}

export type SaveExportResult = { saved: true; path: string } | { saved: false };
export type OpenImportResult = { opened: true; name: string; contents: string } | { opened: false };

/** Arguments and result of every call (all calls are async request/response). */
export interface IpcContract {
  /** Opens an https URL in the system browser; anything else is refused (rejects). */
  openExternal: { args: [url: string]; result: { opened: true } };
  /** Native "Save as…" with the suggested file name; text contents (e.g. JSON). */
  saveExport: { args: [suggestedName: string, contents: string]; result: SaveExportResult };
  /** Native "Open…" for a JSON file; returns its text. */
  openImport: { args: []; result: OpenImportResult };
  setSecret: { args: [name: string, value: string]; result: SecretStorageInfo };
  /** null when no such secret (or it can no longer be decrypted). */
  getSecret: { args: [name: string]; result: string | null };
  deleteSecret: { args: [name: string]; result: { deleted: boolean } };
  secretStorageInfo: { args: []; result: SecretStorageInfo };
  appInfo: { args: []; result: AppInfo };
}

/** What `window.countersign` is: one async function per contract entry, nothing else. */
export type CountersignBridge = {
  readonly [K in IpcName]: (...args: IpcContract[K]['args']) => Promise<IpcContract[K]['result']>;
};

declare global {
  interface Window {
    /** Present only in the desktop app (set by the preload); undefined in a browser. */
    countersign?: CountersignBridge;
  }
}
