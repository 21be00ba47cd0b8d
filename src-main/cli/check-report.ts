// How `countersign check` shows a scorecard: a line per item (with why and how to fix
// what did not pass), the score and the summary line; and the same as JUnit cases.
import type { CheckItem, CheckResult } from '@shared/check-types.js';
import type { JunitSuite } from './junit.js';

const MARK: Record<CheckItem['status'], string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' };

/** `kept`: the service keeps its records (false for a temporary one, gone when the command ends). */
export function humanReport(r: CheckResult, kept: boolean): string {
  const lines = [`Countersign check of ${r.url}  (${r.id}, timeout ${r.timeout_ms} ms, ${r.duration_ms} ms in all)`, ''];
  for (const item of r.items) {
    const tag = item.required ? '' : ' (recommended)';
    lines.push(`${MARK[item.status]}  ${item.title}${tag}`);
    lines.push(`      ${item.message}`);
    if (item.status !== 'pass') {
      lines.push(`      why: ${item.why}`);
      lines.push(`      fix: ${item.fix}`);
    }
  }
  lines.push('');
  if (!r.reachable) lines.push(`The endpoint did not answer any request: is it running, and is ${r.url} its URL?`);
  lines.push(`Score: ${r.summary}`);
  lines.push(
    kept
      ? `Its deliveries are in the inspector: filter origin "check", subscription ${r.id}.`
      : 'It ran on a temporary Countersign, now gone; start one (npm start) to keep its deliveries in the inspector.',
  );
  return lines.join('\n');
}

export function junitSuite(r: CheckResult): JunitSuite {
  return {
    name: `countersign check ${r.url}`,
    timestamp: r.created_at,
    seconds: r.duration_ms / 1000,
    properties: { check_id: r.id, url: r.url, score: `${r.score.passed}/${r.score.total}`, summary: r.summary },
    cases: r.items.map((item) => ({
      classname: 'countersign.check',
      name: `${item.id}: ${item.title}`,
      seconds: (item.latency_ms ?? 0) / 1000,
      ...(item.status === 'fail' ? { failure: { message: item.message, details: `why: ${item.why}\nfix: ${item.fix}` } } : {}),
      ...(item.status === 'warn' ? { output: `warning: ${item.message}\nwhy: ${item.why}\nfix: ${item.fix}` } : {}),
    })),
  };
}
