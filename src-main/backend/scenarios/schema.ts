// The scenario file format (docs/testing-your-endpoint.md, "Scenarios"): a name, how
// the built-in endpoint answers, and steps run in order on the test clock. The JSON
// Schema published in docs/scenario.schema.json is generated from this one (npm run
// openapi), so the file format and its checks cannot drift.
import { z } from 'zod';
import { DOCUMENT_ACTIONS, EVENT_TYPES } from '@shared/api-types.js';
import { responseModeSchema } from '../receiver/inbox-input.js';
import { faultsBody } from '../service-api/fault-routes.js';

const ref = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be a short name: a-z, 0-9, _ and -, starting with a letter');
const eventType = z.enum(EVENT_TYPES, { error: `must be one of: ${EVENT_TYPES.join(', ')}` });

const recipient = z.strictObject({ name: z.string().min(1).max(255), email: z.email().max(254) });

const createDocument = z.strictObject({
  do: z.literal('create_document'),
  /** The name later steps use for this document. */
  ref,
  title: z.string().min(1).max(255).optional(),
  recipients: z.array(recipient).min(1).max(50).optional(),
  metadata: z.record(z.string().max(40), z.unknown()).optional(),
});

const act = z.strictObject({
  do: z.enum(DOCUMENT_ACTIONS),
  document: ref,
  /** Which recipient acts (0-based), for view, complete and decline; default the first. */
  recipient: z.number().int().min(0).max(49).optional(),
});

const advanceClock = z.strictObject({
  do: z.literal('advance_clock'),
  seconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 86_400),
});

const setEndpoint = z.strictObject({
  do: z.literal('set_endpoint'),
  /** How the built-in inbox answers from now on (the receiver's response modes). */
  response: responseModeSchema,
});

const setFaults = z.strictObject({
  do: z.literal('set_faults'),
  /** Deliberate faults on the run's subscription from now on, as PUT …/faults takes them ({} clears them). */
  faults: faultsBody,
});

const expectedDelivery = z.strictObject({
  type: eventType,
  document: ref.optional(),
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional(),
  attempts: z.number().int().min(0).max(100).optional(),
  last_status_code: z.number().int().min(100).max(599).optional(),
});

const expect = z.strictObject({
  do: z.literal('expect'),
  /** Each listed delivery must exist (one of this event type, for this document) and match. */
  deliveries: z.array(expectedDelivery).max(100).optional(),
  /** How many deliveries the endpoint has been sent in all, so far. */
  count: z.number().int().min(0).max(10_000).optional(),
  /** The event types the endpoint received first, in this order (by first attempt). */
  order: z.array(eventType).max(100).optional(),
});

export const scenarioStep = z.discriminatedUnion('do', [createDocument, act, advanceClock, setEndpoint, setFaults, expect]);

export const scenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'must be lower-case letters, digits and -'),
  description: z.string().max(500).optional(),
  /** Which events the endpoint is subscribed to (default all). */
  events: z.union([z.literal('all'), eventType]).optional(),
  /** How the built-in inbox answers at first (ignored with a target URL); default 200. */
  endpoint: z.strictObject({ response: responseModeSchema }).optional(),
  steps: z.array(scenarioStep).min(1).max(200),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioStep = z.infer<typeof scenarioStep>;
export type ExpectStep = z.infer<typeof expect>;

/** The JSON Schema of a scenario file, as published in docs/scenario.schema.json. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://countersign.local/scenario.schema.json',
    title: 'Countersign scenario',
    ...(z.toJSONSchema(scenarioSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>),
  };
}
