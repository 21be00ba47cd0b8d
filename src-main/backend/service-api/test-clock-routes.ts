// /v2/test_helpers/clock (local emulator only, admin key): the service's test clock.
// One clock for the whole service, as the emulator is one machine's: freezing it
// freezes every company's time. advance answers once the step has played (every
// attempt that fell due in it made and recorded).
import { Router } from 'express';
import { z } from 'zod';
import type { ClockControl } from '../clock-control.js';
import { parse } from '../http/validate.js';

/** A year: far enough for any retry schedule (at most 7 days a step), short enough to play. */
export const MAX_ADVANCE_SECONDS = 366 * 86_400;

export const advanceBody = z.strictObject({
  seconds: z
    .number({ error: 'is required and must be a number of seconds' })
    .positive('must be more than 0 (the clock only moves forward)')
    .max(MAX_ADVANCE_SECONDS, `must be at most ${MAX_ADVANCE_SECONDS} (366 days)`),
});
export const noBody = z.strictObject({});

export function testClockRoutes(control: ClockControl): Router {
  const r = Router();
  r.get('/', (_req, res) => {
    res.json(control.view());
  });
  r.post('/freeze', async (req, res) => {
    parse(noBody, req.body ?? {});
    res.json(await control.freeze());
  });
  r.post('/resume', async (req, res) => {
    parse(noBody, req.body ?? {});
    res.json(await control.resume());
  });
  r.post('/advance', async (req, res) => {
    const { seconds } = parse(advanceBody, req.body);
    res.json(await control.advance(seconds));
  });
  return r;
}
