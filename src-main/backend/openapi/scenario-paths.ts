// /v2/test_helpers/scenarios and /v2/test_helpers/demo_packs: scenarios on the test
// clock and demo packs (docs/testing-your-endpoint.md; src-shared/scenario-types.ts).
// Admin keys only; the emulator's own.
import { newScenarioRun } from '../service-api/scenario-routes.js';
import { demoPackSchema } from '../scenarios/pack-schema.js';
import { scenarioSchema } from '../scenarios/schema.js';
import { adminOnly, errors, json, jsonBody, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, int, iso, nullable, object, ref, str, type JsonSchema } from './schema-kit.js';

const tags = ['Test helpers'];
const idList = { type: 'array', items: str() };

const stepResult = object({
  index: int('1-based, as the file counts its steps.'),
  do: str(),
  summary: str('What the step did, or what an expectation found.'),
  outcome: { enum: ['passed', 'failed', 'not_run'] },
  problems: { type: 'array', items: str(), description: 'Why it failed, one reason an item.' },
  delivery_ids: { ...idList, description: 'The deliveries (webhook-ids) it created or that made attempts during it.' },
  at: iso('The test clock when the step ended.'),
});

const run = object({
  object: { const: 'scenario_run' },
  name: str(),
  passed: { type: 'boolean' },
  summary: str(),
  started_at: iso(),
  duration_ms: { type: 'number' },
  endpoint: object({ url: str(), inbox_id: nullable(str()), subscription_id: str() }),
  documents: { type: 'object', additionalProperties: str(), description: "The scenario's document names and the ids they were given." },
  steps: { type: 'array', items: ref('ScenarioStepResult') },
});

const listing = object({ name: str(), description: str(), source: { enum: ['scenario', 'demo_pack'] } });
const packLoad = object({
  object: { const: 'demo_pack_load' },
  name: str(),
  inbox_ids: idList,
  document_ids: idList,
  run: nullable(ref('ScenarioRun')),
});

export const scenarioSchemas: Record<string, JsonSchema> = {
  Scenario: fromZod(scenarioSchema),
  ScenarioStepResult: stepResult,
  ScenarioRun: run,
  DemoPack: fromZod(demoPackSchema),
};

const nameParam = (what: string) => pathParam('name', `The ${what}'s name.`, 'lease-signing');

export const scenarioPaths: Record<string, PathItem> = {
  '/v2/test_helpers/scenarios': {
    get: {
      operationId: 'listScenarios',
      tags,
      summary: 'List the shipped scenarios',
      description: `The scenario files and demo packs' scenarios that ship with Countersign. ${adminOnly}`,
      responses: { '200': json(object({ data: { type: 'array', items: listing } }), 'The scenarios.'), ...errors({}) },
    },
  },
  '/v2/test_helpers/scenarios/{name}': {
    get: {
      operationId: 'getScenario',
      tags,
      summary: 'Read a shipped scenario',
      description: `The file, as a scenario run takes it. ${adminOnly}`,
      parameters: [nameParam('scenario')],
      responses: { '200': json(ref('Scenario'), 'The scenario.'), ...errors({ id: true }) },
    },
  },
  '/v2/test_helpers/scenarios/runs': {
    post: {
      operationId: 'runScenario',
      tags,
      summary: 'Run a scenario on the test clock',
      description: `Freezes the test clock, subscribes the endpoint (a new inbox of the built-in receiver, or \`target\`), plays the steps and judges the expectations; answers once the run has ended. ${adminOnly}`,
      requestBody: jsonBody(fromZod(newScenarioRun), { name: 'lease-signing' }),
      responses: { '201': json(ref('ScenarioRun'), 'The run, step by step.'), ...errors({ body: true, id: true }) },
    },
  },
  '/v2/test_helpers/demo_packs': {
    get: {
      operationId: 'listDemoPacks',
      tags,
      summary: 'List the shipped demo packs',
      description: adminOnly,
      responses: {
        '200': json(object({ data: { type: 'array', items: object({ name: str(), description: str() }) } }), 'The packs.'),
        ...errors({}),
      },
    },
  },
  '/v2/test_helpers/demo_packs/export': {
    get: {
      operationId: 'exportDemoPack',
      tags,
      summary: 'Write a demo pack of this company',
      description: `Its documents (played back to their status on load) and the receiver's inboxes; never a secret. Recipients' names and emails are stand-ins unless \`keep_people=true\`. ${adminOnly}`,
      parameters: [
        { name: 'name', in: 'query', description: "The pack's name (default exported).", schema: { type: 'string' } },
        { name: 'keep_people', in: 'query', description: "Keep recipients' real names and emails.", schema: { enum: ['true', 'false'] } },
      ],
      responses: { '200': json(ref('DemoPack'), 'The pack, ready to save as pack.json.'), ...errors({ query: true }) },
    },
  },
  '/v2/test_helpers/demo_packs/load': {
    post: {
      operationId: 'loadDemoPackFile',
      tags,
      summary: 'Load a demo pack file',
      description: `The same as loading a shipped pack, for a pack in the body (one the export wrote). ${adminOnly}`,
      requestBody: jsonBody(ref('DemoPack')),
      responses: { '201': json(packLoad, 'What was made.'), ...errors({ body: true }) },
    },
  },
  '/v2/test_helpers/demo_packs/{name}/load': {
    post: {
      operationId: 'loadDemoPack',
      tags,
      summary: 'Load a shipped demo pack',
      description: `Creates its inboxes and documents, then runs its scenario (its subscription is kept, for the demo). ${adminOnly}`,
      parameters: [nameParam('demo pack')],
      responses: { '201': json(packLoad, 'What was made.'), ...errors({ id: true, body: true }) },
    },
  },
};
