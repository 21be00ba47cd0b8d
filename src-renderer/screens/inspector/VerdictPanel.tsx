// A capture's verdict, said in words: the reason's title and meaning, the receiver's own
// message for this capture, and the facts behind it (which secret, from where, how old
// the timestamp was). The duplicate flag is beside the verdict, never instead of it.
import type { Verdict } from '@shared/receiver-types.js';
import { Fact } from '../../components/Fact.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { describeAge, verdictWords } from './verdict-text.js';

export function VerdictPanel({ verdict, duplicate, attemptForId }: { verdict: Verdict | null; duplicate: boolean; attemptForId: number }) {
  const words = verdictWords(verdict?.reason ?? null);
  const source =
    verdict?.secret_source === 'pasted'
      ? 'the secret pasted on the inbox'
      : verdict?.secret_source === 'linked'
        ? 'a linked subscription’s secret'
        : 'no secret';
  const age = describeAge(verdict?.timestamp_age_s ?? null);
  return (
    <section className={`verdict verdict-${words.tone}`} aria-label="Verdict">
      <p className="verdict-title">
        <span className="verdict-mark" aria-hidden="true">
          {words.tone === 'success' ? '✓' : words.tone === 'neutral' ? '–' : '!'}
        </span>
        {words.title}
      </p>
      <p className="verdict-explain">{words.explain}</p>
      {verdict && verdict.message && verdict.message !== words.explain && <p className="verdict-message">{verdict.message}</p>}
      {verdict && (
        <dl className="verdict-facts">
          <Fact label="Secret">
            {source}
            {verdict.secret_fingerprint && <span className="mono"> · fingerprint {verdict.secret_fingerprint}</span>}
          </Fact>
          {verdict.subscription_id && (
            <Fact label="Subscription">
              <Link to={linkTo.subscription(verdict.subscription_id)} className="mono">
                {verdict.subscription_id}
              </Link>
            </Fact>
          )}
          {age && <Fact label="Timestamp">{age}</Fact>}
        </dl>
      )}
      {duplicate && (
        <p className="verdict-duplicate">
          <span className="badge badge-warning">duplicate</span> This webhook-id reached this inbox before: this is request {attemptForId}{' '}
          with it. Receivers should process it only once.
        </p>
      )}
    </section>
  );
}
