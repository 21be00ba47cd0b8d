// One scorecard: the verdict and score, the summary line, then every item with its
// status, what was seen, and (when it did not pass) why it matters and how to fix it.
import type { CheckItem, CheckResult } from '@shared/check-types.js';
import { Card } from '../../components/Card.js';
import { linkTo } from '../../paths.js';
import { Link } from '../../router.js';

const TONE: Record<CheckItem['status'], string> = { pass: 'success', warn: 'warning', fail: 'danger' };
const LABEL: Record<CheckItem['status'], string> = { pass: 'Pass', warn: 'Warn', fail: 'Fail' };

function ItemRow({ item }: { item: CheckItem }) {
  return (
    <li className={`check-item check-item-${item.status}`}>
      <span className={`badge badge-${TONE[item.status]} check-item-status`}>{LABEL[item.status]}</span>
      <div className="check-item-body">
        <p className="check-item-title">
          {item.title}
          {!item.required && <span className="subtle"> · recommended</span>}
        </p>
        <p className="check-item-message">{item.message}</p>
        {item.status !== 'pass' && (
          <dl className="check-item-advice">
            <dt>Why it matters</dt>
            <dd>{item.why}</dd>
            <dt>How to fix it</dt>
            <dd>{item.fix}</dd>
          </dl>
        )}
      </div>
    </li>
  );
}

export function CheckReport({ result }: { result: CheckResult }) {
  const { score } = result;
  return (
    <Card title="Result">
      <div className="check-verdict" role="status">
        <span className={`badge badge-${result.passed ? 'success' : 'danger'} check-verdict-badge`}>
          {result.passed ? 'Passed' : 'Failed'}
        </span>
        <span className="check-score">
          {score.passed}/{score.total}
        </span>
        <span className="check-summary">{result.summary}</span>
      </div>
      {!result.reachable && (
        <p className="check-unreachable">The endpoint did not answer any request: is it running, and is this its URL?</p>
      )}
      <p className="subtle check-meta">
        <span className="mono">{result.url}</span> · {result.duration_ms} ms ·{' '}
        <Link to={linkTo.inspector({ origin: 'check', subscription: result.id })}>See its deliveries in the inspector</Link>
      </p>
      <ol className="check-items" aria-label="Items">
        {result.items.map((item) => (
          <ItemRow key={item.id} item={item} />
        ))}
      </ol>
    </Card>
  );
}
