// What a received request was answered: the inbox's own answer, or, for a forwarding
// inbox, where it was passed on and the app's answer (status, time, headers, body), or
// why the app gave none (the 502 or 504 the sender got instead).
import type { CaptureFull, CaptureResponse, ForwardResult } from '@shared/receiver-types.js';
import { Fact } from '../../components/Fact.js';
import { BodyView } from './BodyView.js';
import { HeadersTable, headerPairs } from './HeadersTable.js';

/** One line for the facts list: what the sender got. */
export function answerText(r: CaptureResponse, forward?: ForwardResult): string {
  if (forward) {
    return forward.status !== null
      ? `HTTP ${forward.status} from your app, in ${forward.duration_ms} ms`
      : `HTTP ${r.status}: your app gave no answer (${forward.duration_ms} ms)`;
  }
  if (r.hang)
    return r.sender_gave_up_after_ms !== undefined
      ? `Never answered (hang); the sender gave up after ${r.sender_gave_up_after_ms} ms`
      : 'Never answered (hang)';
  return `HTTP ${r.status}${r.delay_ms ? ` after a ${r.delay_ms} ms delay` : ''}`;
}

function ForwardFacts({ forward }: { forward: ForwardResult }) {
  return (
    <dl className="detail-facts">
      <Fact label="Forwarded to" className="mono break">
        {forward.url}
      </Fact>
      <Fact label="Your app">
        {forward.status !== null ? `HTTP ${forward.status}` : 'no answer'} · {forward.duration_ms} ms
      </Fact>
      {forward.error && (
        <Fact label="Why no answer" className="mono break">
          {forward.error}
        </Fact>
      )}
      {forward.status !== null && (
        <Fact label="Body">
          {forward.body_size} bytes{forward.body_truncated ? ' (the sender got it all; the first 64 KiB are kept here)' : ''}
        </Fact>
      )}
    </dl>
  );
}

export function CaptureAnswer({ capture: c }: { capture: CaptureFull }) {
  const f = c.forward;
  const title = f ? (f.status !== null ? 'Your app’s answer' : `Answer given (your app gave none)`) : 'Answer given';
  return (
    <section className="detail-section" aria-label={f ? 'Your app’s answer' : "The inbox's answer"}>
      <h3 className="detail-h">{title}</h3>
      {f && <ForwardFacts forward={f} />}
      <HeadersTable headers={headerPairs(c.response.headers)} label="Answer headers" />
      {!c.response.hang && <BodyView label="Answer body" text={c.response.body} />}
    </section>
  );
}
