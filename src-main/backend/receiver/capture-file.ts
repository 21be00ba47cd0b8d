// The line format of a capture file (`<dataDir>/captures/<inbox_id>.jsonl`): one JSON
// object per line, the body last as base64, and how lines reach the file. Written as
// byte parts so that a body is never copied into a second big string.
import { open, type FileHandle } from 'node:fs/promises';
import type { Capture } from './types.js';

type StoredCapture = Omit<Capture, 'body'> & { body: string };

const LINE_END = Buffer.from('"}\n');

/**
 * A capture's line as bytes: the fields as JSON with the body last, as base64 (which JSON
 * never escapes), so the body is never copied into a second big string.
 */
export function toLine(c: Capture): Buffer[] {
  const { body, ...rest } = c;
  const head = JSON.stringify({ ...rest, body: '' } satisfies StoredCapture);
  return [Buffer.from(head.slice(0, -2)), Buffer.from(body.toString('base64'), 'latin1'), LINE_END];
}

export const lineBytes = (parts: Buffer[]): number => parts.reduce((n, b) => n + b.length, 0);

export function fromLine(line: string): Capture | null {
  try {
    const s = JSON.parse(line) as StoredCapture;
    if (typeof s?.id !== 'string' || typeof s.inbox_id !== 'string' || typeof s.body !== 'string') return null;
    return { ...s, body: Buffer.from(s.body, 'base64') };
  } catch {
    return null;
  }
}

/** What a capture holds in memory, near enough: its body, path and headers. */
export function captureWeight(c: Capture): number {
  let n = c.body.length + c.path.length + c.response.body.length + 512;
  for (const [name, value] of c.headers) n += name.length + value.length;
  return n;
}

/** Writes every part, however many calls it takes (writev may write less than asked). */
export async function writeAll(fh: FileHandle, parts: Buffer[]): Promise<void> {
  let left = parts;
  while (left.length > 0) {
    const { bytesWritten } = await fh.writev(left);
    let n = bytesWritten;
    let i = 0;
    while (i < left.length && n >= left[i].length) n -= left[i++].length;
    left = left.slice(i);
    if (n > 0) left[0] = left[0].subarray(n);
  }
}

export async function appendParts(path: string, parts: Buffer[]): Promise<void> {
  const fh = await open(path, 'a', 0o600);
  try {
    await writeAll(fh, parts);
  } finally {
    await fh.close();
  }
}
