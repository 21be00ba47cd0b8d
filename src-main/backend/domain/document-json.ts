// The hot read's bytes: a document's view serialised to JSON once and kept until the
// document changes (its table forgets the bytes on every update, remove and reload:
// RowMemo in store/table.ts) or the app URL in the view does (the listener's port).
// Ownership is checked on every read, before any bytes are handed out. At most MAX
// documents' bytes are kept (about 1 KB each), each in its own allocation so that a kept
// document never holds a shared 8 KB pool slab alive.
import type { DomainContext } from './context.js';
import { documentView } from './views.js';

const MAX = 2000;

function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

export function documentJsonReader(ctx: DomainContext): (companyId: string, id: string) => Buffer | undefined {
  const memo = ctx.store.documents.memo<{ appUrl: string; body: Buffer }>(MAX);
  return (companyId, id) => {
    const doc = ctx.store.documents.get(id);
    if (!doc || doc.company_id !== companyId) return undefined;
    const appUrl = ctx.appUrl();
    const kept = memo.get(doc);
    if (kept && kept.appUrl === appUrl) return kept.body;
    const body = ownBytes(JSON.stringify(documentView(doc, appUrl)));
    memo.set(doc, { appUrl, body });
    return body;
  };
}
