// Differences between what a local delivery sent and what the inbox received: headers
// compared by name (case-insensitive, as HTTP does), bodies byte for byte and, where
// they differ, line by line (JSON bodies are compared in their formatted form, so a
// one-line JSON body shows which field changed). Pure functions, tested on their own.

/** Headers the HTTP client or the network add or set per connection: not the sender's doing. */
export const TRANSPORT_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
  'te',
  'expect',
]);

export type HeaderState = 'same' | 'changed' | 'removed' | 'added' | 'transport';

export interface HeaderRow {
  name: string;
  sent: string | null;
  received: string | null;
  state: HeaderState;
}

export function headerDiff(sent: [string, string][], received: [string, string][]): HeaderRow[] {
  const group = (hs: [string, string][]) => {
    const m = new Map<string, { name: string; value: string }>();
    for (const [n, v] of hs) {
      const k = n.toLowerCase();
      const prev = m.get(k);
      m.set(k, prev ? { name: prev.name, value: `${prev.value}, ${v}` } : { name: n, value: v });
    }
    return m;
  };
  const s = group(sent);
  const r = group(received);
  const rows: HeaderRow[] = [];
  for (const [k, v] of s) {
    const got = r.get(k);
    rows.push({
      name: v.name,
      sent: v.value,
      received: got?.value ?? null,
      state: !got ? 'removed' : got.value === v.value ? 'same' : 'changed',
    });
  }
  for (const [k, v] of r) {
    if (s.has(k)) continue;
    rows.push({ name: v.name, sent: null, received: v.value, state: TRANSPORT_HEADERS.has(k) ? 'transport' : 'added' });
  }
  // Differences first, then what matches, then what the transport added.
  const order: Record<HeaderState, number> = { changed: 0, removed: 1, added: 2, same: 3, transport: 4 };
  return rows.sort((a, b) => order[a.state] - order[b.state] || a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
}

export type LineOp =
  | { op: 'same'; left: string; right: string }
  | { op: 'changed'; left: string; right: string }
  | { op: 'removed'; left: string }
  | { op: 'added'; right: string };

/** Longest-common-subsequence line diff beyond this many cells falls back to a coarse one. */
const MAX_CELLS = 4_000_000;

/** A line diff: common start and end kept, the middle aligned by LCS (or, when huge, shown as one change). */
export function lineDiff(a: string[], b: string[]): LineOp[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: LineOp[] = a.slice(0, start).map((l) => ({ op: 'same', left: l, right: l }));
  const tail: LineOp[] = a.slice(endA).map((l) => ({ op: 'same', left: l, right: l }));
  const ma = a.slice(start, endA);
  const mb = b.slice(start, endB);
  const raw: LineOp[] = [];
  if (ma.length * mb.length > MAX_CELLS) {
    for (const l of ma) raw.push({ op: 'removed', left: l });
    for (const l of mb) raw.push({ op: 'added', right: l });
  } else {
    // dp[i][j] = LCS length of ma[i..] and mb[j..]
    const w = mb.length + 1;
    const dp = new Uint32Array((ma.length + 1) * w);
    for (let i = ma.length - 1; i >= 0; i--) {
      for (let j = mb.length - 1; j >= 0; j--) {
        dp[i * w + j] = ma[i] === mb[j] ? dp[(i + 1) * w + j + 1] + 1 : Math.max(dp[(i + 1) * w + j], dp[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < ma.length && j < mb.length) {
      if (ma[i] === mb[j]) {
        raw.push({ op: 'same', left: ma[i], right: mb[j] });
        i++;
        j++;
      } else if (dp[(i + 1) * w + j] >= dp[i * w + j + 1]) raw.push({ op: 'removed', left: ma[i++] });
      else raw.push({ op: 'added', right: mb[j++] });
    }
    while (i < ma.length) raw.push({ op: 'removed', left: ma[i++] });
    while (j < mb.length) raw.push({ op: 'added', right: mb[j++] });
  }
  return [...head, ...pairChanges(raw), ...tail];
}

/** A run of removed lines followed by added ones is shown side by side as changed lines. */
function pairChanges(ops: LineOp[]): LineOp[] {
  const out: LineOp[] = [];
  for (let k = 0; k < ops.length;) {
    if (ops[k].op !== 'removed') {
      out.push(ops[k++]);
      continue;
    }
    const removed: string[] = [];
    while (k < ops.length && ops[k].op === 'removed') removed.push((ops[k++] as { left: string }).left);
    const added: string[] = [];
    while (k < ops.length && ops[k].op === 'added') added.push((ops[k++] as { right: string }).right);
    const n = Math.min(removed.length, added.length);
    for (let x = 0; x < n; x++) out.push({ op: 'changed', left: removed[x], right: added[x] });
    for (let x = n; x < removed.length; x++) out.push({ op: 'removed', left: removed[x] });
    for (let x = n; x < added.length; x++) out.push({ op: 'added', right: added[x] });
  }
  return out;
}

/** JSON formatted with two spaces, or null when the text is not JSON. */
export function prettyJson(text: string): string | null {
  const t = text.trim();
  if (!t || (t[0] !== '{' && t[0] !== '[')) return null;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return null;
  }
}

export interface BodyDiff {
  identical: boolean;
  /** Bytes differ but the JSON they hold is the same (whitespace, key spacing). */
  sameJson: boolean;
  /** How the lines were compared. */
  basis: 'json' | 'text';
  lines: LineOp[];
  changes: number;
}

export function bodyDiff(sent: string, received: string): BodyDiff {
  if (sent === received) {
    const lines = (prettyJson(sent) ?? sent).split('\n').map((l): LineOp => ({ op: 'same', left: l, right: l }));
    return { identical: true, sameJson: true, basis: prettyJson(sent) ? 'json' : 'text', lines, changes: 0 };
  }
  const ps = prettyJson(sent);
  const pr = prettyJson(received);
  const basis = ps !== null && pr !== null ? 'json' : 'text';
  const a = (basis === 'json' ? ps! : sent).split('\n');
  const b = (basis === 'json' ? pr! : received).split('\n');
  const lines = lineDiff(a, b);
  const changes = lines.filter((l) => l.op !== 'same').length;
  return { identical: false, sameJson: basis === 'json' && changes === 0, basis, lines, changes };
}

/** Where two changed lines differ: the lengths of their common start and common end. */
export function changedSpan(a: string, b: string): { prefix: number; suffix: number } {
  let prefix = 0;
  const max = Math.min(a.length, b.length);
  while (prefix < max && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}
