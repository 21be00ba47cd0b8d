// `countersign verify` as a child process: a delivery signed by the standardwebhooks
// library (an independent implementation) verifies; changed in one way, it does not,
// and the reason says which way.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCountersign } from '../helpers/cli.js';

const secret = 'whsec_' + Buffer.from('countersign-cli-verify-test-key-32b').toString('base64');
const body = '{"id":"evt_1","type":"document.completed","timestamp":"2026-11-23T10:00:00.000Z","data":{}}';
const ts = 1_795_000_000;
const id = 'msg_cli_verify';
let file: string;
let signature: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cs-cli-verify-'));
  file = join(dir, 'body.json');
  await writeFile(file, body);
  signature = new Webhook(secret).sign(id, new Date(ts * 1000), body);
});

const args = (extra: string[] = []) => [
  'verify',
  file,
  '--secret',
  secret,
  '--id',
  id,
  '--timestamp',
  String(ts),
  '--now',
  String(ts + 3),
  ...extra,
];

describe('countersign verify', () => {
  it('verifies a correctly signed body and exits 0', async () => {
    const run = await runCountersign([...args(), '--signature', signature]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^verified: /);
  });

  it('prints one JSON document with --json', async () => {
    const run = await runCountersign(['--json', ...args(), '--signature', signature]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ verified: true, reason: 'verified', timestamp_age_s: 3, secret_source: 'pasted' });
  });

  it('refuses a body changed by one byte, exit 1', async () => {
    const changed = join(file, '..', 'changed.json');
    await writeFile(changed, body.replace('completed', 'Completed'));
    const run = await runCountersign([
      '--json',
      'verify',
      changed,
      '--secret',
      secret,
      '--id',
      id,
      '--timestamp',
      String(ts),
      '--now',
      String(ts),
      '--signature',
      signature,
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ verified: false, reason: 'signature_mismatch' });
  });

  it('says the timestamp is too old when it is', async () => {
    const run = await runCountersign([
      'verify',
      file,
      '--secret',
      secret,
      '--id',
      id,
      '--timestamp',
      String(ts),
      '--now',
      String(ts + 3600),
      '--signature',
      signature,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('timestamp_outside_tolerance');
  });

  it('reads the body from stdin with -', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [
      'bin/countersign.mjs',
      'verify',
      '-',
      '--secret',
      secret,
      '--id',
      id,
      '--timestamp',
      String(ts),
      '--now',
      String(ts),
      '--signature',
      signature,
    ]);
    child.stdin.end(body);
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^verified/);
  });

  it('exits 2 without a secret, and on a file that does not exist', async () => {
    const noSecret = await runCountersign(['verify', file, '--id', id], { env: { COUNTERSIGN_WEBHOOK_SECRET: '' } });
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain('--secret is required');
    const missing = await runCountersign(['verify', '/nonexistent/body.json', '--secret', secret]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
