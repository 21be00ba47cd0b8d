// The forward target rule and the URL a forwarded request goes to (pure functions).
import { describe, expect, it } from 'vitest';
import { forwardTargetProblem } from '../../../src-main/backend/receiver/forward-target.js';
import { forwardHeaders, forwardUrl } from '../../../src-main/backend/receiver/forward.js';

describe('forward targets', () => {
  it('loopback names and addresses only, as written', () => {
    for (const h of ['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.9.8.7', '[::1]'])
      expect(forwardTargetProblem(`http://${h}:3000/x`, false), h).toBeNull();
    for (const h of [
      'example.com',
      '10.0.0.1',
      '0.0.0.0',
      '[::]',
      '169.254.169.254',
      'localhost.example.com',
      '127.0.0.1.nip.io',
      '2130706433',
      '127.1',
    ])
      expect(forwardTargetProblem(`http://${h}:3000/x`, false), h).not.toBeNull();
  });

  it('names what is wrong, and lets any host through only with the setting', () => {
    expect(forwardTargetProblem('http://localhost:3000/webhooks', false)).toBeNull();
    expect(forwardTargetProblem('https://example.com/hook', false)).toMatch(/COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST=1/);
    expect(forwardTargetProblem('https://example.com/hook', true)).toBeNull();
    expect(forwardTargetProblem('http://10.1.2.3:8080/hook', true)).toBeNull();
    expect(forwardTargetProblem('http://169.254.169.254/latest/meta-data', true)).toMatch(/metadata/);
    expect(forwardTargetProblem('http://0.0.0.0:3000/', true)).toMatch(/unspecified/);
    expect(forwardTargetProblem('file:///etc/passwd', true)).toMatch(/http or https/);
    expect(forwardTargetProblem('localhost:3000', false)).toMatch(/http or https|absolute/);
    expect(forwardTargetProblem('http://a:b@localhost/', true)).toMatch(/user name/);
    expect(forwardTargetProblem('/relative', false)).toMatch(/absolute/);
  });
});

describe('the forwarded request', () => {
  it('appends the path below the inbox and the query to the target', () => {
    const id = 'inb_abc';
    expect(forwardUrl('http://localhost:3000/webhooks', `/in/${id}`, id)).toBe('http://localhost:3000/webhooks');
    expect(forwardUrl('http://localhost:3000/webhooks', `/in/${id}/a/b`, id)).toBe('http://localhost:3000/webhooks/a/b');
    expect(forwardUrl('http://localhost:3000/webhooks/', `/in/${id}/a`, id)).toBe('http://localhost:3000/webhooks/a');
    expect(forwardUrl('http://localhost:3000', `/in/${id}?x=1`, id)).toBe('http://localhost:3000/?x=1');
    expect(forwardUrl('http://localhost:3000', `/in/${id}/p%20q?x=%2F`, id)).toBe('http://localhost:3000/p%20q?x=%2F');
    expect(forwardUrl('http://localhost:3000/h?k=v', `/in/${id}?x=1`, id)).toBe('http://localhost:3000/h?k=v&x=1');
  });

  it('passes every header as received but those of one connection', () => {
    const raw: [string, string][] = [
      ['Host', '127.0.0.1:4011'],
      ['X-Trace', 'a'],
      ['Connection', 'keep-alive'],
      ['Content-Length', '3'],
      ['Transfer-Encoding', 'chunked'],
      ['webhook-id', 'msg_1'],
      ['X-Trace', 'b'],
    ];
    expect(forwardHeaders(raw)).toEqual(['X-Trace', 'a', 'webhook-id', 'msg_1', 'X-Trace', 'b']);
  });
});
