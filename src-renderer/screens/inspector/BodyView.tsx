// A body as received or sent: formatted JSON (keys, strings, numbers told apart by
// colour through CSS classes) or the raw text, as the person chooses. Always text: the
// tokens are React text nodes in spans, never HTML. Non-UTF-8 bodies show as base64.
import { useId, useMemo, useState, type ReactNode } from 'react';
import { CopyButton } from '../../components/CopyButton.js';
import { prettyJson } from './diff.js';

/** Colouring beyond this size costs more than it helps; the text is shown plain. */
const COLOUR_LIMIT = 200_000;
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** Formatted JSON as spans of text with token classes. */
export function colourJson(pretty: string): ReactNode[] {
  if (pretty.length > COLOUR_LIMIT) return [pretty];
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  for (const m of pretty.matchAll(TOKEN)) {
    const i = m.index ?? 0;
    if (i > last) out.push(pretty.slice(last, i));
    if (m[1] !== undefined) {
      out.push(
        <span key={k++} className={m[2] ? 'tok-key' : 'tok-string'}>
          {m[1]}
        </span>,
      );
      if (m[2]) out.push(m[2]);
    } else if (m[3] !== undefined) {
      out.push(
        <span key={k++} className="tok-number">
          {m[3]}
        </span>,
      );
    } else {
      out.push(
        <span key={k++} className="tok-literal">
          {m[4]}
        </span>,
      );
    }
    last = i + m[0].length;
  }
  if (last < pretty.length) out.push(pretty.slice(last));
  return out;
}

export interface BodyViewProps {
  label: string;
  text: string | null;
  /** The body as base64 when it is not UTF-8 text. */
  base64?: string | null;
  note?: string;
}

export function BodyView({ label, text, base64, note }: BodyViewProps) {
  const pretty = useMemo(() => (text === null ? null : prettyJson(text)), [text]);
  const [raw, setRaw] = useState(false);
  const id = useId();
  const shown = text === null ? (base64 ?? '') : raw || pretty === null ? text : pretty;
  return (
    <div className="body-view">
      <div className="body-view-head">
        <span id={id} className="body-view-label">
          {label}
        </span>
        {note && <span className="subtle">{note}</span>}
        <span className="body-view-tools">
          {pretty !== null && (
            <span className="seg" role="group" aria-label={`${label}: view`}>
              <button type="button" className={raw ? 'seg-btn' : 'seg-btn seg-on'} aria-pressed={!raw} onClick={() => setRaw(false)}>
                Formatted
              </button>
              <button type="button" className={raw ? 'seg-btn seg-on' : 'seg-btn'} aria-pressed={raw} onClick={() => setRaw(true)}>
                Raw
              </button>
            </span>
          )}
          {shown !== '' && <CopyButton value={text ?? base64 ?? ''} what={label.toLowerCase()} />}
        </span>
      </div>
      {text === null && base64 ? <p className="subtle">Not UTF-8 text: shown as base64.</p> : null}
      <pre className="code-block body-pre" aria-labelledby={id} tabIndex={0}>
        {shown === '' ? <span className="subtle">(empty)</span> : !raw && pretty !== null && text !== null ? colourJson(pretty) : shown}
      </pre>
    </div>
  );
}
