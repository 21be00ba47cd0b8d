// How an inbox answers, for every mode the receiver has: a status code, failing the
// first N attempts of each webhook-id, hanging past the sender's timeout, 410 Gone, and
// 429 with Retry-After, or forwarding to the user's app (which then answers); with an
// optional delay (except for hang and forward). Numbers are kept as
// typed text until sent, so the API's own range errors can be shown beside the field.
import { useId } from 'react';
import type { ResponseMode } from '@shared/receiver-types.js';
import { Field } from '../../components/Field.js';

export interface ModeDraft {
  mode: ResponseMode['mode'];
  status: string;
  fail_first_n: string;
  fail_status: string;
  retry_after: string;
  delay_ms: string;
  url: string;
}

export const MODE_LABELS: Record<ResponseMode['mode'], string> = {
  status: 'Answer with a status code',
  fail_first_n: 'Fail the first N attempts of each webhook-id, then 200',
  hang: 'Hang: never answer (the sender times out)',
  gone: '410 Gone',
  rate_limited: '429 Too Many Requests, with Retry-After',
  forward: 'Forward to your app (it answers)',
};

export function draftOf(m: ResponseMode): ModeDraft {
  return {
    mode: m.mode,
    status: m.mode === 'status' ? String(m.status) : '200',
    fail_first_n: m.mode === 'fail_first_n' ? String(m.fail_first_n) : '3',
    fail_status: m.mode === 'fail_first_n' ? String(m.fail_status) : '500',
    retry_after: m.mode === 'rate_limited' ? String(m.retry_after) : '30',
    delay_ms: 'delay_ms' in m && m.delay_ms ? String(m.delay_ms) : '',
    url: m.mode === 'forward' ? m.url : 'http://localhost:3000/webhooks',
  };
}

const num = (s: string) => (s.trim() === '' ? NaN : Number(s));

/** The mode as the API takes it (numbers as typed; the API checks the ranges). */
export function modeOf(d: ModeDraft): ResponseMode {
  const delay = d.delay_ms.trim() === '' ? undefined : num(d.delay_ms);
  const withDelay = delay === undefined ? {} : { delay_ms: delay };
  switch (d.mode) {
    case 'status':
      return { mode: 'status', status: num(d.status), ...withDelay };
    case 'fail_first_n':
      return { mode: 'fail_first_n', fail_first_n: num(d.fail_first_n), fail_status: num(d.fail_status), ...withDelay };
    case 'hang':
      return { mode: 'hang' };
    case 'gone':
      return { mode: 'gone', ...withDelay };
    case 'rate_limited':
      return { mode: 'rate_limited', retry_after: num(d.retry_after), ...withDelay };
    case 'forward':
      return { mode: 'forward', url: d.url.trim() };
  }
}

export function ResponseModeEditor({
  value,
  onChange,
  fieldError,
}: {
  value: ModeDraft;
  onChange: (d: ModeDraft) => void;
  fieldError: (field: string) => string | undefined;
}) {
  const set = (patch: Partial<ModeDraft>) => onChange({ ...value, ...patch });
  const legend = useId();
  const numeric = (label: string, key: keyof ModeDraft, hint: string) => (
    <Field label={label} hint={hint} error={fieldError(`response.${key}`)}>
      <input type="number" inputMode="numeric" value={value[key]} onChange={(e) => set({ [key]: e.target.value })} />
    </Field>
  );
  return (
    <fieldset className="fieldset mode-editor" aria-labelledby={legend}>
      <legend id={legend}>Response</legend>
      <Field label="Mode" error={fieldError('response.mode')}>
        <select value={value.mode} onChange={(e) => set({ mode: e.target.value as ModeDraft['mode'] })}>
          {(Object.keys(MODE_LABELS) as ModeDraft['mode'][]).map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </Field>
      <div className="mode-fields">
        {value.mode === 'status' && numeric('Status', 'status', '200 to 599')}
        {value.mode === 'fail_first_n' && (
          <>
            {numeric('Fail the first', 'fail_first_n', 'attempts, 1 to 100')}
            {numeric('With status', 'fail_status', '300 to 599')}
          </>
        )}
        {value.mode === 'rate_limited' && numeric('Retry-After', 'retry_after', 'seconds, 0 to 86,400')}
        {value.mode === 'forward' && (
          <Field label="Forward to" hint="your app on this machine, e.g. http://localhost:3000/webhooks" error={fieldError('response.url')}>
            <input type="url" value={value.url} onChange={(e) => set({ url: e.target.value })} spellCheck={false} />
          </Field>
        )}
        {value.mode !== 'hang' && value.mode !== 'forward' && numeric('Delay (ms)', 'delay_ms', 'optional, up to 300,000')}
      </div>
      {value.mode === 'forward' && (
        <p className="field-hint">
          Each request goes on to your app byte for byte (the path below the inbox is appended); the sender gets your app&apos;s answer, and
          both are kept here. Only addresses on this machine, unless COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST=1.
        </p>
      )}
      {value.mode === 'hang' && (
        <p className="field-hint">The connection stays open until the sender gives up (the local service waits 15 s), or for 10 minutes.</p>
      )}
    </fieldset>
  );
}
