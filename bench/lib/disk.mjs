// Sizes on disk, and a count of the delivery records in the history log (read straight
// from its segment files, so the figure is what is really stored, not what we sent).
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export async function fileSize(path) {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

export async function dirSize(dir) {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    // A file may go between the listing and its stat (a sidecar's .tmp renamed, a segment dropped by retention).
    total += e.isDirectory()
      ? await dirSize(p)
      : ((await stat(p).catch((err) => (err.code === 'ENOENT' ? null : Promise.reject(err))))?.size ?? 0);
  }
  return total;
}

// A delivery's base record starts a line with this prefix (store/history/records.ts).
const BASE = Buffer.from('\n{"t":"d","s":');

async function countIn(path) {
  let n = 0;
  let carry = Buffer.from('\n'); // the file's first line has no newline before it
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const buf = Buffer.concat([carry, chunk]);
    let at = 0;
    while ((at = buf.indexOf(BASE, at)) !== -1) {
      n++;
      at += BASE.length;
    }
    carry = buf.subarray(Math.max(0, buf.length - (BASE.length - 1)));
  }
  return n;
}

/** Delivery base records in the history folder's segment files. */
export async function countHistoryDeliveries(historyDir) {
  let files;
  try {
    files = (await readdir(historyDir)).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return 0;
  }
  let n = 0;
  for (const f of files) n += await countIn(join(historyDir, f));
  return n;
}

export function mib(bytes) {
  return bytes / (1024 * 1024);
}
