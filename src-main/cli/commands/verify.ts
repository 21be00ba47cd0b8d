// `countersign verify`: checks one received webhook against a secret, offline, and says
// why it does or does not verify (the receiver's verdicts, docs/receiver.md). For a
// request captured anywhere: paste its three headers and its raw body.
import { Option } from 'commander';
import { computeVerdict } from '../../backend/receiver/verdict.js';
import { defineCommand } from '../define.js';
import { EXIT, usageError } from '../exit-codes.js';
import { readInput } from '../read-input.js';

interface VerifyOptions {
  secret?: string;
  id?: string;
  timestamp?: string;
  signature?: string;
  now?: string;
}

export const verifyCommand = defineCommand<VerifyOptions>(
  (cmd) =>
    cmd
      .name('verify')
      .summary('check a received webhook signature against a secret, offline')
      .description(
        'Check one received webhook (its webhook-id, webhook-timestamp and webhook-signature headers and its raw body) ' +
          'against a whsec_ secret, and say why it does or does not verify. Exits 0 when it verifies, 1 when it does not.',
      )
      .argument('<body-file>', 'the raw body exactly as received, or - for stdin')
      .addOption(new Option('--secret <whsec>', 'the subscription secret (whsec_…)').env('COUNTERSIGN_WEBHOOK_SECRET'))
      .option('--id <webhook-id>', 'the webhook-id header')
      .option('--timestamp <seconds>', 'the webhook-timestamp header')
      .option('--signature <value>', 'the webhook-signature header (one or more "v1,<base64>", space separated)')
      .option('--now <seconds>', 'judge the timestamp as of this Unix time (default: now)')
      .addHelpText(
        'after',
        '\nExample:\n  countersign verify body.json --secret whsec_… --id msg_… --timestamp 1767225600 --signature "v1,…"\n',
      ),
  async ({ out }, [bodyFile], opts) => {
    if (!opts.secret) throw usageError('--secret is required (or set COUNTERSIGN_WEBHOOK_SECRET)');
    const now = opts.now === undefined ? Math.floor(Date.now() / 1000) : Number(opts.now);
    if (!Number.isInteger(now) || now < 0) throw usageError(`--now must be Unix seconds (got "${opts.now}")`);
    const body = await readInput(bodyFile);
    const verdict = await computeVerdict({
      headers: { 'webhook-id': opts.id, 'webhook-timestamp': opts.timestamp, 'webhook-signature': opts.signature },
      body,
      now,
      candidates: [{ secret: opts.secret, source: 'pasted', subscription_id: null }],
    });
    const verified = verdict.reason === 'verified';
    out.result({ verified, ...verdict }, () => `${verified ? 'verified' : `not verified (${verdict.reason})`}: ${verdict.message}`);
    return verified ? EXIT.ok : EXIT.failed;
  },
);
