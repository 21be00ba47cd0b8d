// node:http's responses keep V8's fast layout whenever the garbage collector runs at
// start-up (src-main/backend/http/message-shapes.ts). Without the settling, a full
// collection between the 6th and 7th response of the process left every later response
// in V8's dictionary mode, and GET /documents/{id} cost about twice its CPU for the
// process's life (docs/benchmark.md, "Figure 1 and V8's object layout"). The built
// headless service runs here with a probe (test/helpers/response-shape-probe.mjs) that
// forces a full collection after each of the first responses, the request after it
// waiting for it, so every point where one could fall is tried in one run.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHeadless } from '../helpers/headless.js';
import { waitUntil } from '../helpers/wait.js';

const PROBE = pathToFileURL(resolve('test/helpers/response-shape-probe.mjs')).href;
const GC_FIRST = 12;

describe('response layout after garbage collections at start-up', () => {
  it('keeps every response of the process in V8’s fast layout', async () => {
    const h = await startHeadless({ env: { NODE_OPTIONS: `--import=${PROBE}`, COUNTERSIGN_TEST_GC_FIRST: String(GC_FIRST) } });
    try {
      const gcDone = (i: number) =>
        waitUntil(`the probe's collection after response ${i}`, async () => h.stderr().includes(`[shape] gc ${i}\n`));
      const created = await h.api('POST', '/v2/test_helpers/documents', { title: 'Shape', recipients: [{ name: 'a', email: 'a@b.co' }] });
      expect(created.status).toBe(201);
      await gcDone(1);
      const id = (created.body as { public_id: string }).public_id;
      for (let i = 2; i <= GC_FIRST + 4; i++) {
        const got = await h.api('GET', `/documents/${id}`);
        expect(got.status).toBe(200);
        expect((got.body as { public_id: string }).public_id).toBe(id);
        if (i <= GC_FIRST) await gcDone(i);
      }
      const shapes = [...h.stderr().matchAll(/^\[shape\] (\d+) (\w+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
      // The probe saw every request (it works), and each response was born fast.
      expect(shapes).toHaveLength(GC_FIRST + 4);
      expect(shapes).toEqual(shapes.map((_, i) => `${i + 1} fast`));
    } finally {
      await h.stop();
    }
  });
});
