// One scenario run: passed or failed with its summary, then each step with its outcome,
// what it did (or, for an expectation, why it did not hold), and the deliveries it
// caused beside it, each a link to the inspector.
import type { ScenarioRun, ScenarioStepResult } from '@shared/scenario-types.js';
import { Card } from '../../components/Card.js';
import { linkTo } from '../../paths.js';
import { Link } from '../../router.js';

const TONE: Record<ScenarioStepResult['outcome'], string> = { passed: 'success', failed: 'danger', not_run: 'neutral' };
const LABEL: Record<ScenarioStepResult['outcome'], string> = { passed: 'Passed', failed: 'Failed', not_run: 'Not run' };

function StepRow({ step, subscription }: { step: ScenarioStepResult; subscription: string }) {
  return (
    <li className={`check-item scenario-step scenario-step-${step.outcome}`}>
      <span className={`badge badge-${TONE[step.outcome]} check-item-status`}>{LABEL[step.outcome]}</span>
      <div className="check-item-body">
        <p className="check-item-title">
          <span className="subtle">{step.index}.</span> {step.summary}
        </p>
        {step.problems.map((p) => (
          <p key={p} className="check-item-message">
            {p}
          </p>
        ))}
        {step.delivery_ids.length > 0 && (
          <p className="subtle scenario-step-deliveries">
            {step.delivery_ids.length === 1 ? '1 delivery' : `${step.delivery_ids.length} deliveries`}:{' '}
            {step.delivery_ids.map((id) => (
              <span key={id} className="mono truncate scenario-delivery-id" title={id}>
                {id}
              </span>
            ))}{' '}
            · <Link to={linkTo.inspector({ subscription })}>in the inspector</Link>
          </p>
        )}
      </div>
    </li>
  );
}

export function ScenarioRunReport({ run }: { run: ScenarioRun }) {
  return (
    <Card title={`Run of ${run.name}`}>
      <div className="check-verdict" role="status">
        <span className={`badge badge-${run.passed ? 'success' : 'danger'} check-verdict-badge`}>{run.passed ? 'Passed' : 'Failed'}</span>
        <span className="check-summary">{run.summary}</span>
      </div>
      <p className="subtle check-meta">
        To <span className="mono">{run.endpoint.url}</span> · {run.duration_ms} ms of wall time ·{' '}
        <Link to={linkTo.inspector({ subscription: run.endpoint.subscription_id })}>All its deliveries in the inspector</Link>
      </p>
      <ol className="check-items" aria-label="Steps">
        {run.steps.map((s) => (
          <StepRow key={s.index} step={s} subscription={run.endpoint.subscription_id} />
        ))}
      </ol>
    </Card>
  );
}
