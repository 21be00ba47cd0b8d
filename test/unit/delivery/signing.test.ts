// Signing is checked against the Standard Webhooks reference library (the package
// `standardwebhooks`), not against itself: what we sign, any receiver must verify.
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  decodeSecret,
  generateSecret,
  parseSecret,
  signPayload,
  signingKey,
  verifySignature,
  webhookHeaders,
  USER_AGENT,
  type SignInput,
} from '../../../src-main/backend/delivery/signing.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER_SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64');

/** A valid delivery, signed now; each test changes exactly one thing. */
function validDelivery(overrides: Partial<SignInput> = {}) {
  const input: SignInput = {
    secret: SECRET,
    msgId: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
    timestamp: Math.floor(Date.now() / 1000),
    body: JSON.stringify({
      id: 'evt_1',
      type: 'document.completed',
      timestamp: '2025-01-01T00:00:00.000Z',
      data: { document: { title: 'Zoë’s lease ✓' } },
    }),
    ...overrides,
  };
  return { input, headers: webhookHeaders(input) };
}

function referenceVerify(secret: string, body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

describe('signPayload / webhookHeaders', () => {
  it('produces headers the reference library verifies', () => {
    const { input, headers } = validDelivery();
    expect(referenceVerify(SECRET, input.body as string, headers)).toBe(true);
    expect(headers['webhook-id']).toBe(input.msgId);
    expect(headers['webhook-timestamp']).toBe(String(input.timestamp));
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe(USER_AGENT);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('matches the reference library byte for byte, for every key form', () => {
    const { input } = validDelivery();
    const reference = new Webhook(SECRET).sign(input.msgId, new Date(input.timestamp * 1000), input.body as string);
    expect(signPayload(input)).toBe(reference);
    expect(signPayload({ ...input, secret: decodeSecret(SECRET) })).toBe(reference);
    expect(signPayload({ ...input, secret: signingKey(SECRET) })).toBe(reference);
    expect(signPayload({ ...input, body: Buffer.from(input.body as string) })).toBe(reference);
  });

  it('signs with a prepared key exactly as createHmac does, whatever the key length and body', () => {
    // Key lengths around SHA-256's 64-byte block (longer keys are hashed first); bodies empty,
    // multi-byte, lone surrogates, and past the shared 16 KiB buffer; string and bytes alike.
    const keyLengths = [1, 24, 32, 63, 64, 65, 100, 200];
    const bodies = ['', 'a', 'Zoë’s lease ✓ 🖋', '\ud800 lone', 'x'.repeat(16 * 1024), 'é'.repeat(20_000)];
    for (const n of keyLengths) {
      const key = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff));
      const prepared = signingKey(key);
      for (const body of bodies) {
        const expected = createHmac('sha256', key).update(`msg_1.1700000000.${body}`).digest('base64');
        expect(signPayload({ secret: prepared, msgId: 'msg_1', timestamp: 1700000000, body })).toBe(`v1,${expected}`);
        expect(signPayload({ secret: prepared, msgId: 'msg_1', timestamp: 1700000000, body: Buffer.from(body) })).toBe(`v1,${expected}`);
      }
    }
  });

  it('matches a known vector (the Standard Webhooks spec example)', () => {
    expect(
      signPayload({
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        msgId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        timestamp: 1614265330,
        body: '{"test": 2432232314}',
      }),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it.each([
    [
      'one body byte',
      (d: ReturnType<typeof validDelivery>) => ({
        body: (d.input.body as string).replace('completed', 'completeD'),
        headers: d.headers,
        secret: SECRET,
      }),
    ],
    ['the secret', (d: ReturnType<typeof validDelivery>) => ({ body: d.input.body as string, headers: d.headers, secret: OTHER_SECRET })],
    [
      'the timestamp',
      (d: ReturnType<typeof validDelivery>) => ({
        body: d.input.body as string,
        headers: { ...d.headers, 'webhook-timestamp': String(d.input.timestamp - 1) },
        secret: SECRET,
      }),
    ],
    [
      'the id',
      (d: ReturnType<typeof validDelivery>) => ({
        body: d.input.body as string,
        headers: { ...d.headers, 'webhook-id': d.input.msgId + 'x' },
        secret: SECRET,
      }),
    ],
    [
      'the signature',
      (d: ReturnType<typeof validDelivery>) => ({
        body: d.input.body as string,
        headers: {
          ...d.headers,
          'webhook-signature': d.headers['webhook-signature'].replace(/^v1,(.)/, (_m, c: string) => `v1,${c === 'A' ? 'B' : 'A'}`),
        },
        secret: SECRET,
      }),
    ],
  ])('changing %s makes verification fail (reference library and ours)', (_what, tamper) => {
    const delivery = validDelivery();
    expect(referenceVerify(SECRET, delivery.input.body as string, delivery.headers)).toBe(true);
    const t = tamper(delivery);
    expect(referenceVerify(t.secret, t.body, t.headers)).toBe(false);
    const ours = verifySignature({
      secret: t.secret,
      msgId: t.headers['webhook-id'],
      timestamp: t.headers['webhook-timestamp'],
      signature: t.headers['webhook-signature'],
      body: t.body,
    });
    expect(ours).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
});

describe('verifySignature', () => {
  const base = () => {
    const { input, headers } = validDelivery({ timestamp: 1_700_000_000 });
    return {
      secret: SECRET,
      msgId: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body: input.body,
      now: 1_700_000_000,
    };
  };

  it('accepts a valid delivery and reports its timestamp', () => {
    expect(verifySignature(base())).toEqual({ ok: true, timestamp: 1_700_000_000 });
  });

  it('accepts a match among several space-separated signatures, ignoring other versions', () => {
    const v = base();
    const signature = `v1a,abc v1,${Buffer.alloc(32).toString('base64')} ${v.signature}`;
    expect(verifySignature({ ...v, signature }).ok).toBe(true);
    expect(verifySignature({ ...v, signature: `v2,${v.signature.slice(3)}` })).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('enforces the tolerance window both ways', () => {
    const v = base();
    expect(verifySignature({ ...v, now: v.now + 300 }).ok).toBe(true);
    expect(verifySignature({ ...v, now: v.now + 301 })).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(verifySignature({ ...v, now: v.now - 301 })).toEqual({ ok: false, reason: 'timestamp_too_new' });
    expect(verifySignature({ ...v, now: v.now + 1000, toleranceSeconds: 2000 }).ok).toBe(true);
  });

  it('rejects missing headers and malformed timestamps', () => {
    const v = base();
    expect(verifySignature({ ...v, msgId: undefined })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifySignature({ ...v, signature: '' })).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verifySignature({ ...v, timestamp: '17e8' })).toEqual({ ok: false, reason: 'invalid_timestamp' });
    expect(verifySignature({ ...v, timestamp: '-1' })).toEqual({ ok: false, reason: 'invalid_timestamp' });
  });

  it('rejects an empty secret without throwing', () => {
    expect(verifySignature({ ...base(), secret: 'whsec_' })).toEqual({ ok: false, reason: 'invalid_secret' });
  });
});

describe('parseSecret / generateSecret', () => {
  it('accepts whsec_ + base64 of 24..64 bytes and returns the bytes', () => {
    for (const n of [24, 32, 64]) {
      const bytes = Buffer.alloc(n, n);
      const parsed = parseSecret('whsec_' + bytes.toString('base64'));
      expect(parsed.ok && parsed.key.equals(bytes)).toBe(true);
    }
  });

  it.each([
    ['no prefix', Buffer.alloc(32).toString('base64')],
    ['wrong prefix', 'wsec_' + Buffer.alloc(32).toString('base64')],
    ['empty', 'whsec_'],
    ['too short (23 bytes)', 'whsec_' + Buffer.alloc(23).toString('base64')],
    ['too long (65 bytes)', 'whsec_' + Buffer.alloc(65).toString('base64')],
    ['url-safe alphabet', 'whsec_' + Buffer.alloc(33, 0xfb).toString('base64url')],
    ['missing padding', 'whsec_' + Buffer.alloc(32).toString('base64').replace(/=+$/, '')],
    ['spaces', 'whsec_ ' + Buffer.alloc(32).toString('base64')],
  ])('rejects %s with a reason', (_what, secret) => {
    const parsed = parseSecret(secret);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(5);
  });

  it('generates distinct valid 32-byte secrets that the reference library can use', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a).not.toBe(b);
    const parsed = parseSecret(a);
    expect(parsed.ok && parsed.key.length).toBe(32);
    const { input, headers } = validDelivery({ secret: a });
    expect(referenceVerify(a, input.body as string, headers)).toBe(true);
  });
});
