// The demo pack format (docs/testing-your-endpoint.md, "Demo packs"): the data a demo
// starts from (inboxes of the built-in receiver, and documents played to a status
// before anyone listens) and, optionally, a scenario played on top of it.
import { z } from 'zod';
import { responseModeSchema } from '../receiver/inbox-input.js';
import { scenarioSchema, scenarioStep } from './schema.js';

const seedStep = scenarioStep.refine((s) => s.do === 'create_document' || 'document' in s, {
  message: 'a pack seed only creates documents and plays their actions',
});

export const demoPackSchema = z.strictObject({
  $schema: z.string().optional(),
  name: scenarioSchema.shape.name,
  description: z.string().max(500),
  /** Inboxes to create, with how each answers (never a secret: a pack carries none). */
  inboxes: z
    .array(z.strictObject({ name: z.string().min(1).max(100), response: responseModeSchema.optional() }))
    .max(20)
    .optional(),
  /** Documents made and played before the scenario (no subscription of the pack hears them). */
  seed: z.array(seedStep).max(500).optional(),
  scenario: scenarioSchema.optional(),
});

export type DemoPack = z.infer<typeof demoPackSchema>;

/** The JSON Schema of a pack file, as published in docs/demo-pack.schema.json. */
export function demoPackJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://countersign.local/demo-pack.schema.json',
    title: 'Countersign demo pack',
    ...(z.toJSONSchema(demoPackSchema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>),
  };
}
