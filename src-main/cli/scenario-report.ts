// How `countersign scenario run` shows a run: a line per step (what it did, and for a
// failed expectation why), the summary; and the same as JUnit cases, one a step.
import type { ScenarioRun } from '@shared/scenario-types.js';
import type { JunitSuite } from './junit.js';

const MARK = { passed: 'ok  ', failed: 'FAIL', not_run: 'skip' } as const;

export function scenarioReport(run: ScenarioRun): string {
  const lines = [`Scenario ${run.name} → ${run.endpoint.url}`, ''];
  for (const s of run.steps) {
    const ids = s.delivery_ids.length ? `  [${s.delivery_ids.length} deliveries]` : '';
    lines.push(`${MARK[s.outcome]}  ${String(s.index).padStart(2)}. ${s.summary}${ids}`);
    for (const p of s.problems) lines.push(`          ${p}`);
  }
  lines.push('', `${run.passed ? 'Passed' : 'Failed'}: ${run.summary} (${run.duration_ms} ms)`);
  return lines.join('\n');
}

export function scenarioJunit(run: ScenarioRun): JunitSuite {
  return {
    name: `countersign scenario ${run.name}`,
    timestamp: run.started_at,
    seconds: run.duration_ms / 1000,
    properties: { scenario: run.name, endpoint: run.endpoint.url, summary: run.summary },
    cases: run.steps.map((s) => ({
      classname: `countersign.scenario.${run.name}`,
      name: `${String(s.index).padStart(2, '0')} ${s.do}: ${s.summary}`,
      seconds: 0,
      ...(s.outcome === 'failed' ? { failure: { message: s.problems[0] ?? s.summary, details: s.problems.join('\n') } } : {}),
      ...(s.outcome === 'not_run' ? { output: 'not run: an earlier step could not be done' } : {}),
    })),
  };
}
