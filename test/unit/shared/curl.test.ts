// "Copy as curl" (src-shared/curl.ts) with hostile values, run by a real /bin/sh: a
// stand-in `curl` function prints the arguments it was given and the bytes on its
// standard input, so each test sees exactly what the real curl would get, and that
// nothing in the values ran as shell code.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand, leftOutOfCurl, shellQuote, utf8Base64, type CurlRequest } from '../../../src-shared/curl.js';

let dir: string;
let pwned: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-curl-'));
  pwned = join(dir, 'pwned');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Arguments as "<count>\0<arg>\0<arg>\0…", then standard input as it came.
const FAKE_CURL = `curl() { printf '%s\\0' "$#"; for a in "$@"; do printf '%s\\0' "$a"; done; cat; }`;

async function run(command: string): Promise<{ args: string[]; stdin: Buffer }> {
  const out = await new Promise<Buffer>((resolve, reject) => {
    const child = execFile('/bin/sh', ['-c', `${FAKE_CURL}\n${command}`], { cwd: dir, encoding: 'buffer' }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    child.stdin!.end(); // a command without a body must not wait for input
  });
  let at = out.indexOf(0);
  const count = Number(out.subarray(0, at).toString());
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = out.indexOf(0, at + 1);
    args.push(out.subarray(at + 1, end).toString('utf8'));
    at = end;
  }
  return { args, stdin: out.subarray(at + 1) };
}

const hostile = (mark: string) => `it's "q" $(touch ${mark}) \`touch ${mark}\` \${HOME} \\ é 日本 😀 ;& | > x`;

describe('shellQuote', () => {
  it('makes one word that the shell gives back unchanged', async () => {
    const values = ["'", "''", "a'b", hostile(pwned), 'line1\nline2\r\n', '-n', '', ' spaced  out '];
    const { args } = await run(`curl ${values.map(shellQuote).join(' ')}`);
    expect(args).toEqual(values);
    expect(existsSync(pwned)).toBe(false);
  });
});

describe('curlCommand', () => {
  const base: CurlRequest = { method: 'POST', url: 'http://127.0.0.1:4011/in/inb_1', headers: [] };

  it('passes hostile header values, URL and text body through literally', async () => {
    const body = `{"a":"${hostile(pwned)}"}\nsecond line\n`;
    const url = `http://127.0.0.1:4011/in/inb_1?q='$(touch ${pwned})'&b=\`touch ${pwned}\``;
    const cmd = curlCommand({
      ...base,
      url,
      headers: [
        ['X-Evil', hostile(pwned)],
        ['webhook-id', 'msg_1'],
      ],
      body: { text: body },
    });
    const { args, stdin } = await run(cmd);
    expect(args).toEqual(['-sS', '-X', 'POST', url, '-H', `X-Evil: ${hostile(pwned)}`, '-H', 'webhook-id: msg_1', '--data-binary', '@-']);
    expect(stdin.toString('utf8')).toBe(body);
    expect(existsSync(pwned)).toBe(false);
  });

  it('never puts credentials or connection headers in the line, in any letter case', async () => {
    const headers: [string, string][] = [
      ['X-Api-Key', 'cs_secret'],
      ['authorization', 'Bearer secret'],
      ['Proxy-Authorization', 'Basic secret'],
      ['X-CONSOLE-TOKEN', 'secret'],
      ['Cookie', 'session=secret'],
      ['X-Auth-Token', 'secret'],
      ['Stripe-Signature', 't=1,v1=secret'],
      ['X-Hub-Signature-256', 'sha256=secret'],
      ['Host', 'example.com'],
      ['Content-Length', '12'],
      ['Connection', 'keep-alive'],
      ['Transfer-Encoding', 'chunked'],
      ['Content-Type', 'application/json'],
    ];
    for (const [name] of headers.slice(0, -1)) expect(leftOutOfCurl(name), name).toBe(true);
    const signature: [string, string] = ['webhook-signature', 'v1,c2lnbmVk'];
    const cmd = curlCommand({ ...base, headers: [...headers, signature], body: { text: '{}' } });
    expect(cmd).not.toMatch(/secret|example\.com|keep-alive|chunked|Content-Length/);
    // The Standard Webhooks signature is what makes the command a faithful re-send: kept.
    expect((await run(cmd)).args).toEqual(expect.arrayContaining(['Content-Type: application/json', 'webhook-signature: v1,c2lnbmVk']));
  });

  it('leaves out a header that could not be sent as it is (CR, LF or NUL in it)', async () => {
    const cmd = curlCommand({
      ...base,
      headers: [
        ['X-Split', 'a\r\nX-Injected: 1'],
        ['X-Ok', 'fine'],
      ],
    });
    const { args } = await run(cmd);
    expect(args).toEqual(['-sS', '-X', 'POST', base.url, '-H', 'X-Ok: fine']);
  });

  it('sends bytes that are not text through base64 -d, exactly', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x27, 0x0a, 0x24, 0x28, 0xc3]);
    const { stdin } = await run(curlCommand({ ...base, body: { base64: bytes.toString('base64') } }));
    expect(stdin.equals(bytes)).toBe(true);
  });

  it('sends text holding a NUL (which no shell word can carry) as base64 too', async () => {
    const text = `a\0b 'é' $(touch ${pwned})`;
    const cmd = curlCommand({ ...base, body: { text } });
    expect(cmd).toContain('base64 -d');
    expect((await run(cmd)).stdin.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(existsSync(pwned)).toBe(false);
  });

  it('has no body part for an empty body, and keeps a URL starting with "-" from reading as an option', async () => {
    expect(curlCommand({ ...base, method: 'GET', body: { text: '' } })).toBe(`curl -sS -X 'GET' '${base.url}'\n`);
    const { args } = await run(curlCommand({ ...base, url: '-o/tmp/x' }));
    expect(args).toEqual(['-sS', '-X', 'POST', '--url', '-o/tmp/x']);
  });
});

describe('utf8Base64', () => {
  it('encodes as Buffer does, lone surrogates included', () => {
    for (const s of ['', 'a', 'ab', 'abc', 'é', '日本語', '😀x', '\0', 'lone \ud800 surrogate', 'x'.repeat(1000) + '€']) {
      expect(utf8Base64(s)).toBe(Buffer.from(s, 'utf8').toString('base64'));
    }
  });
});
