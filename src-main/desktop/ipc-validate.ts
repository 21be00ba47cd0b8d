// Argument checks for the IPC handlers. Guards against a page (even a compromised one
// on the console's origin) using the bridge beyond its purpose: a suggested file name
// cannot pick the folder (the user does, in the native dialog), contents are bounded
// text, and nothing else is accepted. Pure, no Electron.
import { IPC_LIMITS } from '@shared/ipc-contract.js';

export class IpcArgumentError extends Error {
  override name = 'IpcArgumentError';
}

const FALLBACK_NAME = 'countersign-export.json';

/**
 * A suggested file name reduced to a plain name: no folders (`/`, `\`), no traversal,
 * no characters that Windows or the shell treat specially, no leading dot (hidden file),
 * bounded length. Empty after cleaning: a default name.
 */
export function sanitizeFileName(suggested: unknown): string {
  if (typeof suggested !== 'string') return FALLBACK_NAME;
  const lastPart = suggested.split(/[/\\]/).pop() ?? '';
  let name = lastPart
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .slice(0, IPC_LIMITS.suggestedNameLength)
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  // Windows device names are not files.
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)) name = '';
  return name === '' ? FALLBACK_NAME : name;
}

export function checkExportContents(contents: unknown): string {
  if (typeof contents !== 'string') throw new IpcArgumentError('export contents must be text');
  if (contents.length > IPC_LIMITS.exportChars) throw new IpcArgumentError(`export contents are over ${IPC_LIMITS.exportChars} characters`);
  return contents;
}

/** The import file's size, checked before it is read. */
export function checkImportSize(bytes: number): void {
  if (bytes > IPC_LIMITS.importBytes) {
    throw new IpcArgumentError(`the file is over ${Math.round(IPC_LIMITS.importBytes / 1024 / 1024)} MiB`);
  }
}

/** Calls that take no arguments get none: extra ones mean a confused or hostile caller. */
export function checkNoArgs(args: readonly unknown[]): void {
  if (args.length !== 0) throw new IpcArgumentError('this call takes no arguments');
}
