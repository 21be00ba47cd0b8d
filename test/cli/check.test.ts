// `countersign check` as a user and CI run it: the built command as a child process,
// against small loopback endpoints written in the test, with its exit code, its human
// and JSON output and its JUnit XML checked; once through a temporary service, once
// through a running headless instance whose inspector then holds the check's deliveries.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src-main/backend/delivery/signing.js';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLI_BIN, runCountersign } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';
import { acceptEverything, verifyingEndpoint, type Endpoint } from '../helpers/check-endpoints.js';
import { startHeadless } from '../helpers/headless.js';

const secret = generateSecret();
let dir: string;
let good: Endpoint;
let lax: Endpoint;
/** No running instance is found: a temporary service runs the check. */
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-check-cli-'));
  env = { COUNTERSIGN_DATA_DIR: join(dir, 'no-instance'), COUNTERSIGN_API_URL: '', COUNTERSIGN_API_KEY: '' };
  good = await verifyingEndpoint(secret);
  lax = await acceptEverything();
});
afterAll(async () => {
  await Promise.all([good.close(), lax.close()]);
  await rm(dir, { recursive: true, force: true });
});

const attr = (xml: string, tag: string, name: string) => new RegExp(`<${tag} [^>]*${name}="([^"]*)"`).exec(xml)?.[1];

describe('countersign check', () => {
  it('exits 0 for an endpoint that passes every item, with a score line and a JUnit report without failures', async () => {
    const junit = join(dir, 'good.xml');
    const run = await runCountersign(['check', good.url, '--secret', secret, '--junit', junit], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Countersign check of ${good.url}`);
    expect(run.stdout).toMatch(/^PASS {2}Refuses a signature made with another secret$/m);
    expect(run.stdout).toContain('Score: 14/14 passed; every required item passed');
    expect(run.stderr).toMatch(/through a temporary Countersign/);
    expect(run.stdout).toContain('It ran on a temporary Countersign, now gone');
    const xml = await readFile(junit, 'utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(attr(xml, 'testsuite', 'tests')).toBe('14');
    expect(attr(xml, 'testsuite', 'failures')).toBe('0');
    expect(xml.match(/<testcase /g)).toHaveLength(14);
    expect(xml).not.toContain('<failure');
  });

  it('exits 1 for an endpoint that accepts forgeries, naming each failure with why and how to fix it, in JUnit too', async () => {
    const junit = join(dir, 'lax.xml');
    const run = await runCountersign(['check', lax.url, '--junit', junit], { env: { ...env, COUNTERSIGN_WEBHOOK_SECRET: secret } });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}Refuses a delivery without signature headers$/m);
    expect(run.stdout).toMatch(/^ {6}fix: Answer 400 or 401 when webhook-id/m);
    expect(run.stdout).toContain('Score: 9/14 passed; failed: refuses_unsigned, refuses_other_secret');
    const xml = await readFile(junit, 'utf8');
    expect(attr(xml, 'testsuite', 'failures')).toBe('5');
    const failed = [...xml.matchAll(/<testcase [^>]*name="([^":]*):[^"]*"[^>]*>\s*<failure /g)].map((m) => m[1]);
    expect(failed).toEqual([
      'refuses_unsigned',
      'refuses_other_secret',
      'refuses_changed_body',
      'refuses_old_timestamp',
      'refuses_future_timestamp',
    ]);
  });

  it('prints one JSON document with --json, nothing else on stdout', async () => {
    const run = await runCountersign(['check', lax.url, '--secret', secret, '--json'], { env });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ object: 'check', url: lax.url, passed: false, score: { passed: 9, failed: 5, total: 14 } });
    expect(run.stderr).toBe('');
  });

  it('exits 3 when the endpoint does not answer at all', async () => {
    const run = await runCountersign(['check', 'http://127.0.0.1:9/hook', '--secret', secret, '--timeout', '1000'], { env });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('The endpoint did not answer any request');
  });

  it('exits 2 on a wrong command line: no secret, a URL the service refuses, a bad timeout', async () => {
    const noSecret = await runCountersign(['check', good.url], { env: { ...env, COUNTERSIGN_WEBHOOK_SECRET: '' } });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('--secret is required');
    const badUrl = await runCountersign(['check', 'http://example.com/hook', '--secret', secret], { env });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('<url> must use https://');
    const badTimeout = await runCountersign(['check', good.url, '--secret', secret, '--timeout', 'soon'], { env });
    expect(badTimeout.code).toBe(2);
    expect(badTimeout.stderr).toContain('--timeout must be whole milliseconds');
  });

  it('goes through a running instance found by --data-dir, whose inspector then shows the check', async () => {
    const h = await startHeadless();
    try {
      const run = await runCountersign(['check', good.url, '--secret', secret, '--json', '--data-dir', h.dataDir], { env });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      const feed = await h.consoleApi('GET', `/inspector/feed?origin=check&subscription_id=${result.id}&limit=100`);
      expect(feed.body.data).toHaveLength(33);
    } finally {
      await h.stop();
    }
  });

  it('stops on Ctrl-C while an endpoint hangs, with exit 130, and leaves no temporary data behind', async () => {
    const hanging = createServer(() => undefined); // never answers
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
    const tmp = join(dir, 'tmp');
    await import('node:fs/promises').then((fs) => fs.mkdir(tmp));
    const child = spawn(process.execPath, [CLI_BIN, 'check', url, '--secret', secret, '--timeout', '60000'], {
      env: { ...process.env, ...env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await waitUntil('the check to start', async () => stderr.includes('Checking'), 20_000);
      const started = performance.now();
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(performance.now() - started).toBeLessThan(10_000);
      const { readdir } = await import('node:fs/promises');
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});
