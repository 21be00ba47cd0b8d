// `countersign scenario` as CI runs it: the built command as a child process, a
// scenario file that holds and one that does not, with exit codes and JUnit XML
// checked; an invalid file refused before anything runs; and `--demo` at start, which
// loads a shipped pack into a fresh data directory of a real headless process.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCountersign } from '../helpers/cli.js';
import { startHeadless, type Headless } from '../helpers/headless.js';

let dir: string;
let env: Record<string, string>;
let demo: Headless | undefined;

const holds = {
  name: 'holds',
  steps: [
    { do: 'create_document', ref: 'nda', recipients: [{ name: 'Jo', email: 'jo@example.com' }] },
    { do: 'send', document: 'nda' },
    { do: 'complete', document: 'nda' },
    { do: 'expect', count: 4, order: ['document.created', 'document.sent', 'document.recipient_completed', 'document.completed'] },
  ],
};
const failsOne = {
  name: 'fails-one',
  steps: [...holds.steps.slice(0, 2), { do: 'expect', deliveries: [{ type: 'document.declined', document: 'nda' }] }],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-scenario-cli-'));
  // No running instance is found: each command starts a temporary service.
  env = { COUNTERSIGN_DATA_DIR: join(dir, 'no-instance'), COUNTERSIGN_API_URL: '', COUNTERSIGN_API_KEY: '' };
  await writeFile(join(dir, 'holds.json'), JSON.stringify(holds));
  await writeFile(join(dir, 'fails.json'), JSON.stringify(failsOne));
  await writeFile(join(dir, 'broken.json'), JSON.stringify({ name: 'Broken Name', steps: [{ do: 'send' }] }));
});
afterAll(async () => {
  await demo?.stop();
  await rm(dir, { recursive: true, force: true });
});

const attr = (xml: string, tag: string, name: string) => new RegExp(`<${tag} [^>]*${name}="([^"]*)"`).exec(xml)?.[1];

describe('countersign scenario', () => {
  it('exits 0 when every step passes, one line a step, and a JUnit case a step', async () => {
    const junit = join(dir, 'holds.xml');
    const run = await runCountersign(['scenario', 'run', join(dir, 'holds.json'), '--junit', junit], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok {4} 4\. expect 4 deliveries in all; order document\.created → /m);
    expect(run.stdout).toContain('Passed: 1 of 1 expectations held');
    const xml = await readFile(junit, 'utf8');
    expect(attr(xml, 'testsuite', 'tests')).toBe('4');
    expect(attr(xml, 'testsuite', 'failures')).toBe('0');
  });

  it('exits 1 when an expectation fails, saying why, and JUnit carries the failure', async () => {
    const junit = join(dir, 'fails.xml');
    const run = await runCountersign(['scenario', 'run', join(dir, 'fails.json'), '--junit', junit, '--json'], { env, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.passed).toBe(false);
    expect(result.steps[2].problems).toEqual(['document.declined of nda: never sent']);
    const xml = await readFile(junit, 'utf8');
    expect(attr(xml, 'testsuite', 'failures')).toBe('1');
    expect(xml).toContain('<failure message="document.declined of nda: never sent"');
  });

  it('refuses an invalid file before running anything (exit 2), and validate names each problem (exit 1)', async () => {
    const run = await runCountersign(['scenario', 'run', join(dir, 'broken.json')], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not a valid scenario/);
    const v = await runCountersign(['scenario', 'validate', join(dir, 'broken.json')]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/name: must be lower-case letters, digits and -/);
    expect(v.stdout).toMatch(/steps\.0\.document/);
    const ok = await runCountersign(['scenario', 'validate', join(dir, 'holds.json')]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('a valid scenario, 4 steps');
  });

  it('--demo loads a shipped pack into a fresh data directory at start, offline', async () => {
    demo = await startHeadless({ args: ['--demo', 'lease-signing'], env: { COUNTERSIGN_RETRY_SCHEDULE: '' } });
    expect(demo.stderr()).toMatch(/demo pack lease-signing loaded: 2 documents, 1 of 1 expectations held/);
    const docs = (await demo.consoleApi('GET', '/documents')).body.data;
    expect(docs.map((d: any) => d.status)).toEqual(['COMPLETED', 'COMPLETED']);
    const inboxes = (await demo.consoleApi('GET', '/inboxes')).body.data;
    expect(inboxes.map((i: any) => i.name).sort()).toEqual(['Lettings app (demo)', 'Scenario lease-signing']);
    expect((await demo.api('GET', '/v2/webhooks')).body.data).toHaveLength(1);
  });
});
