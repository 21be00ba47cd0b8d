// Sent and received, side by side: what the local delivery engine put on the wire and
// what the inbox got, for one webhook-id. Every difference is marked twice, by colour
// and by words ("changed", "only sent", "only received"), so it never rests on colour
// alone. Headers the HTTP transport adds (Host, Content-Length, …) are shown apart and
// quietly: they are expected, not a tampering.
import { useMemo, useState } from 'react';
import type { CapturePair } from '@shared/inspector-types.js';
import { bodyDiff, changedSpan, headerDiff, type HeaderRow, type LineOp } from './diff.js';

const STATE_WORDS: Record<HeaderRow['state'], string> = {
  same: 'same',
  changed: 'changed',
  removed: 'only sent',
  added: 'only received',
  transport: 'added in transit',
};

function ChangedText({ text, other, side }: { text: string; other: string; side: 'left' | 'right' }) {
  const { prefix, suffix } = changedSpan(text, other);
  const mid = text.slice(prefix, text.length - suffix);
  return (
    <>
      {text.slice(0, prefix)}
      {mid && <mark className={side === 'left' ? 'diff-mark-del' : 'diff-mark-add'}>{mid}</mark>}
      {text.slice(text.length - suffix)}
    </>
  );
}

function DiffLine({ line, n }: { line: LineOp; n: number }) {
  const left = line.op === 'added' ? null : line.left;
  const right = line.op === 'removed' ? null : line.right;
  const cls = `diff-line diff-${line.op}`;
  const word = line.op === 'same' ? '' : line.op === 'changed' ? 'changed' : line.op === 'removed' ? 'only sent' : 'only received';
  return (
    <tr className={cls}>
      <td className="diff-n" aria-hidden="true">
        {n}
      </td>
      <td className="diff-cell diff-left">
        {word && <span className="visually-hidden">{word}: </span>}
        {left === null ? '' : line.op === 'changed' ? <ChangedText text={left} other={line.right} side="left" /> : left}
      </td>
      <td className="diff-cell diff-right">
        {right === null ? '' : line.op === 'changed' ? <ChangedText text={right} other={line.left} side="right" /> : right}
      </td>
    </tr>
  );
}

/** Unchanged lines kept around each difference; longer unchanged runs fold away. */
const CONTEXT = 3;

type Item = { kind: 'line'; line: LineOp; n: number } | { kind: 'fold'; start: number; count: number };

/** The lines to show: runs of unchanged lines longer than the context are folded. */
export function foldLines(lines: LineOp[], unfolded: ReadonlySet<number>): Item[] {
  const out: Item[] = [];
  for (let i = 0; i < lines.length;) {
    if (lines[i].op !== 'same') {
      out.push({ kind: 'line', line: lines[i], n: i + 1 });
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end].op === 'same') end++;
    const keepBefore = i === 0 ? 0 : CONTEXT;
    const keepAfter = end === lines.length ? 0 : CONTEXT;
    const foldFrom = i + keepBefore;
    const foldTo = end - keepAfter;
    if (foldTo - foldFrom > 2 && !unfolded.has(foldFrom)) {
      for (let k = i; k < foldFrom; k++) out.push({ kind: 'line', line: lines[k], n: k + 1 });
      out.push({ kind: 'fold', start: foldFrom, count: foldTo - foldFrom });
      for (let k = foldTo; k < end; k++) out.push({ kind: 'line', line: lines[k], n: k + 1 });
    } else {
      for (let k = i; k < end; k++) out.push({ kind: 'line', line: lines[k], n: k + 1 });
    }
    i = end;
  }
  return out;
}

// The headers, sent beside received, each with its difference in words.
function HeaderDiffTable({ headers }: { headers: HeaderRow[] }) {
  return (
    <table className="diff-table compare-headers">
      <caption className="compare-caption">Headers</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Sent</th>
          <th scope="col">Received</th>
          <th scope="col">
            <span className="visually-hidden">Difference</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {headers.map((h) => (
          <tr key={h.name.toLowerCase()} className={`hdr-${h.state}`}>
            <th scope="row" className="mono">
              {h.name}
            </th>
            <td className="mono break">{h.sent ?? <span className="subtle">—</span>}</td>
            <td className="mono break">{h.received ?? <span className="subtle">—</span>}</td>
            <td className="hdr-state">{STATE_WORDS[h.state]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CompareView({ pair }: { pair: CapturePair }) {
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(() => new Set());
  const sent = pair.sent;
  const headers = useMemo(() => (sent ? headerDiff(sent.headers, pair.received.headers) : []), [sent, pair.received.headers]);
  const receivedBody = pair.received.body_text ?? `(not UTF-8 text; base64) ${pair.received.body_base64 ?? ''}`;
  const body = useMemo(() => (sent ? bodyDiff(sent.body, receivedBody) : null), [sent, receivedBody]);
  if (!sent || !body) return <p className="notice notice-info">{pair.note ?? 'The sent request is not known.'}</p>;

  const headerChanges = headers.filter((h) => h.state === 'changed' || h.state === 'removed' || h.state === 'added').length;
  const methodChanged = sent.method !== pair.received.method;
  const summary = [
    methodChanged ? `method changed (${sent.method} → ${pair.received.method})` : null,
    headerChanges === 0 ? 'headers the same' : `${headerChanges} header ${headerChanges === 1 ? 'difference' : 'differences'}`,
    body.identical
      ? 'body identical, byte for byte'
      : body.sameJson
        ? 'body bytes differ, same JSON'
        : `body differs (${body.changes} ${body.changes === 1 ? 'line' : 'lines'})`,
  ].filter(Boolean);
  const clean = !methodChanged && headerChanges === 0 && body.identical;

  return (
    <div className="compare">
      <p className={clean ? 'compare-summary compare-clean' : 'compare-summary compare-dirty'} role="status">
        {clean ? 'No difference: ' : 'Differences: '}
        {summary.join(' · ')}
        {pair.match === 'nearest' && (
          <span className="compare-note">
            {' '}
            No attempt sent exactly this request: compared with attempt {sent.attempt}, the last one sent before it arrived.
          </span>
        )}
      </p>
      <div className="compare-heads">
        <div>
          <span className="compare-side">Sent</span> <span className="mono">{sent.method}</span>{' '}
          <span className="mono break">{sent.url}</span>
          <span className="subtle"> · attempt {sent.attempt}</span>
        </div>
        <div>
          <span className="compare-side">Received</span> <span className="mono">{pair.received.method}</span>{' '}
          <span className="mono break">{pair.received.path}</span>
          <span className="subtle"> · inbox {pair.inbox.name ?? pair.inbox.id}</span>
        </div>
      </div>

      <HeaderDiffTable headers={headers} />

      <table className="diff-table compare-body">
        <caption className="compare-caption">Body {body.basis === 'json' ? '(JSON, formatted for comparison)' : '(text)'}</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Line</span>
            </th>
            <th scope="col">Sent ({new TextEncoder().encode(sent.body).length} bytes)</th>
            <th scope="col">Received ({pair.received.size} bytes)</th>
          </tr>
        </thead>
        <tbody className="mono">
          {foldLines(body.lines, unfolded).map((item) =>
            item.kind === 'line' ? (
              <DiffLine key={item.n} line={item.line} n={item.n} />
            ) : (
              <tr key={`fold-${item.start}`} className="diff-fold">
                <td colSpan={3}>
                  <button type="button" className="fold-btn" onClick={() => setUnfolded((u) => new Set([...u, item.start]))}>
                    Show {item.count} unchanged {item.count === 1 ? 'line' : 'lines'}
                  </button>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
