// Webhooks → Check an endpoint: the conformance scorecard for the user's own endpoint
// (the same result as `countersign check`): a URL and its secret in, every item out
// with pass / warn / fail, why it matters and how to fix it, and a link to the check's
// deliveries in the inspector. The secret is sent once to sign and is not kept.
import { useState, type FormEvent } from 'react';
import { useRunCheck } from '../../api/checks.js';
import { ApiRequestError } from '../../api/errors.js';
import { Card } from '../../components/Card.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useTitle } from '../../use-title.js';
import type { CheckResult } from '@shared/check-types.js';
import { CheckReport } from './CheckReport.js';

export function CheckScreen() {
  useTitle('Check an endpoint');
  const run = useRunCheck();
  const [result, setResult] = useState<CheckResult | null>(null);
  return (
    <>
      <PageHeader title="Check an endpoint">
        <p className="page-lede">
          Sends real signed deliveries, and deliberately wrong ones, to your endpoint and grades each answer: what a correct webhook
          endpoint accepts, what it must refuse. The same check as <span className="mono">countersign check</span>.
        </p>
      </PageHeader>
      <Card title="Endpoint">
        <CheckForm run={run} onResult={setResult} />
      </Card>
      {run.isPending && (
        <p className="check-running" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> Checking… each request waits for its answer, up to the timeout.
        </p>
      )}
      {result && !run.isPending && <CheckReport result={result} />}
    </>
  );
}

function CheckForm({ run, onResult }: { run: ReturnType<typeof useRunCheck>; onResult: (r: CheckResult) => void }) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [timeout, setTimeoutText] = useState('');
  const err = run.error instanceof ApiRequestError ? run.error : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const timeoutMs = timeout.trim() === '' ? undefined : Number(timeout);
    run.mutate({ url: url.trim(), secret: secret.trim(), timeout_ms: timeoutMs }, { onSuccess: onResult });
  };
  return (
    <form className="check-form" onSubmit={submit} noValidate aria-label="Check an endpoint">
      <Field label="Endpoint URL" error={err?.fieldMessage('url')} hint="https://…, or http:// on localhost" className="check-url">
        <input
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="http://127.0.0.1:3000/webhooks"
          spellCheck={false}
          autoComplete="off"
        />
      </Field>
      <Field label="Signing secret" error={err?.fieldMessage('secret')} hint="The whsec_… secret your endpoint verifies with; not kept">
        <input
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          placeholder="whsec_…"
          spellCheck={false}
          autoComplete="off"
          type="password"
        />
      </Field>
      <Field label="Timeout (ms)" error={err?.fieldMessage('timeout_ms')} hint="Per request; default 10000">
        <input value={timeout} onChange={(e) => setTimeoutText(e.target.value)} inputMode="numeric" placeholder="10000" />
      </Field>
      <div className="check-form-submit">
        <button type="submit" className="btn btn-primary" disabled={run.isPending}>
          {run.isPending ? 'Checking…' : 'Run check'}
        </button>
      </div>
      {run.error != null && err?.fields.length === 0 && (
        <div className="create-form-error">
          <ErrorNotice error={run.error} title="The check could not run." />
        </div>
      )}
    </form>
  );
}
