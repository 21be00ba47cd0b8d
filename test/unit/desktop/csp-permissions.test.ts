// The desktop CSP (added beside the backend's, never replacing it) and the permission
// decision (everything refused but sanitized clipboard writes from the console).
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, withConsoleCsp } from '../../../src-main/desktop/csp.js';
import { isPermissionAllowed } from '../../../src-main/desktop/permissions.js';

const ORIGIN = 'http://127.0.0.1:4010';

describe('CONSOLE_CSP', () => {
  it('allows only the console origin and forbids inline script, eval, plugins, frames and base', () => {
    const directives = new Map(CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });
});

describe('withConsoleCsp', () => {
  it("adds the desktop CSP next to the backend's own", () => {
    const out = withConsoleCsp(
      { 'content-security-policy': ["default-src 'self'"], 'content-type': ['text/html'] },
      `${ORIGIN}/app/`,
      ORIGIN,
    );
    expect(out['content-security-policy']).toEqual(["default-src 'self'", CONSOLE_CSP]);
    expect(out['content-type']).toEqual(['text/html']);
    expect(Object.keys(out).filter((k) => k.toLowerCase() === 'content-security-policy')).toHaveLength(1);
  });
  it('adds it when the backend sent none', () => {
    expect(withConsoleCsp(undefined, `${ORIGIN}/app/assets/x.js`, ORIGIN)['Content-Security-Policy']).toEqual([CONSOLE_CSP]);
  });
  it('leaves responses from other origins alone', () => {
    const headers = { 'content-type': ['text/html'] };
    expect(withConsoleCsp(headers, 'http://127.0.0.1:4011/', ORIGIN)).toEqual(headers);
    expect(withConsoleCsp(headers, 'garbage', ORIGIN)).toEqual(headers);
  });
});

describe('isPermissionAllowed', () => {
  it('refuses every powerful permission, from any origin', () => {
    for (const p of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'fullscreen',
      'openExternal',
      'hid',
      'serial',
      'usb',
      'display-capture',
      'unknown',
    ]) {
      expect(isPermissionAllowed(p, `${ORIGIN}/app/`, ORIGIN), p).toBe(false);
    }
  });
  it('allows sanitized clipboard writes from the console origin only', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', `${ORIGIN}/app/`, ORIGIN)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', ORIGIN, ORIGIN)).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example', ORIGIN)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', undefined, ORIGIN)).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', '', ORIGIN)).toBe(false);
  });
});
