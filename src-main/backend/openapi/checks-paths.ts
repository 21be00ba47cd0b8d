// /v2/test_helpers/checks: the conformance scorecard of an endpoint (docs/api.md,
// "Conformance checks"; src-shared/check-types.ts). Admin keys only; the emulator's own.
import { CHECK_ITEM_IDS } from '@shared/check-types.js';
import { newCheck } from '../service-api/check-routes.js';
import { adminOnly, errors, json, jsonBody, type PathItem } from './operation-kit.js';
import { fromZod, int, iso, nullable, object, prefixed, ref, str, type JsonSchema } from './schema-kit.js';

const checkItem = object({
  id: { enum: [...CHECK_ITEM_IDS] },
  title: str(),
  required: { type: 'boolean', description: 'A failed required item fails the check; the others can only warn.' },
  status: { enum: ['pass', 'warn', 'fail'] },
  message: str('What was seen, in one sentence.'),
  why: str(),
  fix: str('How to fix it (empty when it passed).'),
  latency_ms: nullable({ type: 'number' }),
  deliveries: { type: 'array', items: str(), description: 'The webhook-ids it sent, in order.' },
});

const checkResult = object({
  object: { const: 'check' },
  id: prefixed('chk_'),
  url: str(),
  created_at: iso(),
  timeout_ms: int(),
  duration_ms: { type: 'number' },
  reachable: { type: 'boolean', description: 'false when no request got any answer.' },
  passed: { type: 'boolean', description: 'Every required item passed.' },
  score: object({ passed: int(), warned: int(), failed: int(), total: int() }),
  summary: str(),
  items: { type: 'array', items: ref('CheckItem') },
});

export const checkSchemas: Record<string, JsonSchema> = { CheckItem: checkItem, CheckResult: checkResult };

export const checksPaths: Record<string, PathItem> = {
  '/v2/test_helpers/checks': {
    post: {
      operationId: 'runCheck',
      tags: ['Test helpers'],
      summary: 'Grade an endpoint (conformance scorecard)',
      description: `Sends real signed requests to \`url\` with \`secret\` (never stored) and answers the scorecard once every item is graded. ${adminOnly}`,
      requestBody: jsonBody(fromZod(newCheck), { url: 'http://127.0.0.1:3000/webhooks', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      responses: { '201': json(ref('CheckResult'), 'The scorecard.'), ...errors({ body: true }) },
    },
  },
};
