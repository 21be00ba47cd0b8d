// /v2/test_helpers/clock: the service's test clock (docs/api.md, "Test clock"). Admin
// keys only; the emulator's own, not part of the real service's contract.
import { advanceBody, noBody } from '../service-api/test-clock-routes.js';
import { adminOnly, errors, json, jsonBody, type Operation, type PathItem } from './operation-kit.js';
import { fromZod, ref } from './schema-kit.js';

const tags = ['Test helpers'];
const example = { object: 'test_clock', now: '2026-11-23T09:00:00.000Z', frozen: true, offset_seconds: 86400 };
const clock = (description: string) => json(ref('TestClock'), description, example);

const change = (operationId: string, summary: string, description: string): Operation => ({
  operationId,
  tags,
  summary,
  description: `${description} ${adminOnly}`,
  requestBody: jsonBody(fromZod(noBody), undefined, false),
  responses: { '200': clock('The clock now.'), ...errors({ body: true }) },
});

export const testClockPaths: Record<string, PathItem> = {
  '/v2/test_helpers/clock': {
    get: {
      operationId: 'getTestClock',
      tags,
      summary: 'Read the test clock',
      description: `One clock for the whole service. ${adminOnly}`,
      responses: { '200': clock('The clock.'), ...errors({}) },
    },
  },
  '/v2/test_helpers/clock/freeze': {
    post: change(
      'freezeTestClock',
      'Freeze the test clock',
      "Stops the service's time where it is; freezing a frozen clock changes nothing.",
    ),
  },
  '/v2/test_helpers/clock/resume': {
    post: change('resumeTestClock', 'Resume the test clock', 'Lets it run again from the frozen instant (time never jumps back).'),
  },
  '/v2/test_helpers/clock/advance': {
    post: {
      operationId: 'advanceTestClock',
      tags,
      summary: 'Advance the test clock',
      description: `Moves it forward by \`seconds\`, playing every attempt that falls due in order; answers once the whole step has played. ${adminOnly}`,
      requestBody: jsonBody(fromZod(advanceBody), { seconds: 100000 }),
      responses: { '200': clock('The clock after the step.'), ...errors({ body: true }) },
    },
  },
};
