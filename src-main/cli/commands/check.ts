// `countersign check <url>`: the conformance scorecard (docs/testing-your-endpoint.md).
// The service the command reaches (target.ts) sends the signed requests and records
// them in its inspector (POST /v2/test_helpers/checks); this file shows the result,
// writes the JUnit report, and turns it into the exit code: 0 when every required item
// passed, 1 when one failed, 3 when the endpoint (or Countersign) could not be reached.
import { Option } from 'commander';
import { defineCommand } from '../define.js';
import { CliError, EXIT, usageError, type ExitCode } from '../exit-codes.js';
import { apiFailure, resolveTarget, withTargetOptions, type ApiAnswer, type TargetOptions } from '../target.js';
import { humanReport, junitSuite } from '../check-report.js';
import { writeJunit } from '../junit.js';
import { CHECK_TIMEOUT_DEFAULT_MS, CHECK_TIMEOUT_MAX_MS, CHECK_TIMEOUT_MIN_MS, type CheckResult } from '@shared/check-types.js';

interface CheckOptions extends TargetOptions {
  secret?: string;
  junit?: string;
  timeout?: string;
}

function timeoutOf(raw: string | undefined): number {
  if (raw === undefined) return CHECK_TIMEOUT_DEFAULT_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < CHECK_TIMEOUT_MIN_MS || n > CHECK_TIMEOUT_MAX_MS)
    throw usageError(`--timeout must be whole milliseconds from ${CHECK_TIMEOUT_MIN_MS} to ${CHECK_TIMEOUT_MAX_MS} (got "${raw}")`);
  return n;
}

/** A 422 names what was wrong with the URL or the secret: the command line's mistake. */
function refusal(answer: ApiAnswer): CliError {
  const fields = (answer.body as { error?: { details?: { fields?: { field: string; message: string }[] } } } | undefined)?.error?.details
    ?.fields;
  if (answer.status === 422 && fields)
    return usageError(fields.map((f) => `${f.field === 'url' ? '<url>' : `--${f.field}`} ${f.message}`).join('; '));
  return apiFailure(answer, 'the check');
}

const interrupted = (signal: AbortSignal) =>
  new Promise<'interrupted'>((resolve) => {
    if (signal.aborted) resolve('interrupted');
    signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });

export const checkCommand = defineCommand<CheckOptions>(
  (cmd) =>
    withTargetOptions(
      cmd
        .name('check')
        .summary('grade a webhook endpoint: signed deliveries, forgeries, duplicates, order, redirects')
        .description(
          'Send real signed deliveries (and deliberately wrong ones) to your endpoint and grade what it answers, each item ' +
            'pass / warn / fail with why it matters and how to fix it. Exits 0 when every required item passes, 1 when one ' +
            'fails, 3 when the endpoint or Countersign cannot be reached. See docs/testing-your-endpoint.md.',
        )
        .argument('<url>', 'your endpoint (https://…, or http:// on localhost)')
        .addOption(new Option('--secret <whsec>', 'the secret your endpoint verifies with (whsec_…)').env('COUNTERSIGN_WEBHOOK_SECRET'))
        .option('--junit <file>', 'also write the result as a JUnit XML report, for CI')
        .option('--timeout <ms>', `how long each request may take (default ${CHECK_TIMEOUT_DEFAULT_MS})`),
    ).addHelpText(
      'after',
      '\nExample:\n  countersign check http://127.0.0.1:3000/webhooks/countersign --secret whsec_… --junit check.xml\n',
    ),
  async ({ out, signal }, [url], opts) => {
    if (!opts.secret) throw usageError('--secret is required (or set COUNTERSIGN_WEBHOOK_SECRET)');
    const timeoutMs = timeoutOf(opts.timeout);
    const target = await resolveTarget(opts);
    try {
      out.note(`Checking ${url} through ${target.description}…`);
      const body = { url, secret: opts.secret, timeout_ms: timeoutMs };
      // The items run at once, each at most three requests in a row, then the burst.
      const call = target.request('POST', '/v2/test_helpers/checks', body, 5 * timeoutMs + 30_000);
      const answer = await Promise.race([call, interrupted(signal)]);
      if (answer === 'interrupted') return EXIT.interrupted;
      if (answer.status !== 201) throw refusal(answer);
      const result = answer.body as CheckResult;
      if (opts.junit) await writeJunit(opts.junit, junitSuite(result));
      out.result(result, () => humanReport(result, target.source !== 'temporary'));
      const code: ExitCode = !result.reachable ? EXIT.unavailable : result.passed ? EXIT.ok : EXIT.failed;
      return code;
    } finally {
      await target.close();
    }
  },
);
