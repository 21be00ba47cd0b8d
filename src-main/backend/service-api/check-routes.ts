// POST /v2/test_helpers/checks (local emulator only, admin key): runs the conformance
// scorecard against an endpoint and answers with it (docs/testing-your-endpoint.md).
// The secret is used to sign this check's requests and is never stored or answered;
// the URL follows the rules of a subscription's URL (schemas.ts) and the same address
// policy at connect time.
import { Router } from 'express';
import { z } from 'zod';
import { parse } from '../http/validate.js';
import { actorOf } from './auth.js';
import { newSubscription } from './schemas.js';
import { parseSecret } from '../delivery/signing.js';
import type { CheckInput } from '../checks/runner.js';
import { CHECK_TIMEOUT_DEFAULT_MS, CHECK_TIMEOUT_MAX_MS, CHECK_TIMEOUT_MIN_MS, type CheckResult } from '@shared/check-types.js';

export type RunCheck = (input: CheckInput) => Promise<CheckResult>;

export const newCheck = z.strictObject({
  url: newSubscription.shape.url,
  secret: z.string({ error: 'is required and must be a string (whsec_…)' }).superRefine((v, ctx) => {
    const parsed = parseSecret(v);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  }),
  timeout_ms: z
    .number({ error: 'must be a whole number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(CHECK_TIMEOUT_MIN_MS, `must be at least ${CHECK_TIMEOUT_MIN_MS}`)
    .max(CHECK_TIMEOUT_MAX_MS, `must be at most ${CHECK_TIMEOUT_MAX_MS}`)
    .optional(),
});

export function checkRoutes(runCheck: RunCheck): Router {
  const r = Router();
  r.post('/', async (req, res) => {
    const body = parse(newCheck, req.body);
    const result = await runCheck({
      companyId: actorOf(res).company_id,
      url: body.url,
      secret: body.secret,
      timeoutMs: body.timeout_ms ?? CHECK_TIMEOUT_DEFAULT_MS,
    });
    res.status(201).json(result);
  });
  return r;
}
