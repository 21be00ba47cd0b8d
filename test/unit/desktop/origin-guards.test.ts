// The navigation guard, the window-open decision, the external-link check and the IPC
// sender check: pure functions, exercised with the URLs a hostile or confused page
// could produce.
import { describe, expect, it } from 'vitest';
import {
  consoleOriginOf,
  decideWindowOpen,
  isAllowedNavigation,
  isSafeExternalUrl,
  isTrustedSender,
} from '../../../src-main/desktop/origin-guards.js';

const ORIGIN = 'http://127.0.0.1:4010';

describe('consoleOriginOf', () => {
  it('takes the origin of a loopback http api_url', () => {
    expect(consoleOriginOf('http://127.0.0.1:4010')).toBe(ORIGIN);
    expect(consoleOriginOf('http://127.0.0.1:53211/')).toBe('http://127.0.0.1:53211');
  });
  it('refuses anything that is not loopback http', () => {
    for (const bad of ['https://127.0.0.1:4010', 'http://example.com:4010', 'http://10.0.0.1:4010', 'file:///tmp', 'nonsense']) {
      expect(() => consoleOriginOf(bad), bad).toThrow(/loopback/);
    }
  });
});

describe('isAllowedNavigation', () => {
  it('allows the console itself on the exact origin', () => {
    for (const ok of [
      'http://127.0.0.1:4010/app',
      'http://127.0.0.1:4010/app/',
      'http://127.0.0.1:4010/app/#token=abc',
      'http://127.0.0.1:4010/app/documents?d=doc_abc',
      'http://127.0.0.1:4010/app/settings/webhooks',
    ]) {
      expect(isAllowedNavigation(ok, ORIGIN), ok).toBe(true);
    }
  });

  it('refuses other origins, even on loopback', () => {
    for (const bad of [
      'http://127.0.0.1:4011/app/',
      'http://localhost:4010/app/',
      'https://127.0.0.1:4010/app/',
      'http://127.0.0.2:4010/app/',
      'https://example.com/app/',
      'http://127.0.0.1:4010.evil.example/app/',
    ]) {
      expect(isAllowedNavigation(bad, ORIGIN), bad).toBe(false);
    }
  });

  it('refuses file:, javascript:, data:, blob: and about: URLs', () => {
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      `blob:${ORIGIN}/1b3c`,
      'about:blank',
      'view-source:http://127.0.0.1:4010/app/',
    ]) {
      expect(isAllowedNavigation(bad, ORIGIN), bad).toBe(false);
    }
  });

  it('refuses same-origin pages outside the console, credentials and garbage', () => {
    for (const bad of [
      'http://127.0.0.1:4010/v2/webhooks',
      'http://127.0.0.1:4010/',
      'http://127.0.0.1:4010/application',
      'http://user:pw@127.0.0.1:4010/app/',
      '',
      'not a url',
    ]) {
      expect(isAllowedNavigation(bad, ORIGIN), bad).toBe(false);
    }
  });
});

describe('isSafeExternalUrl', () => {
  it('accepts plain https links', () => {
    expect(isSafeExternalUrl('https://www.standardwebhooks.com/')).toBe(true);
    expect(isSafeExternalUrl('https://dashboard.ngrok.com/get-started/your-authtoken')).toBe(true);
  });
  it('refuses everything else', () => {
    for (const bad of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      'ms-msdt:/id PCWDiagnostic',
      'https://user:pass@example.com/',
      'https://example.com/a b',
      `https://example.com/${'a'.repeat(3000)}`,
      42,
      null,
    ]) {
      expect(isSafeExternalUrl(bad), String(bad)).toBe(false);
    }
  });
});

describe('decideWindowOpen', () => {
  it('hands https links to the system browser', () => {
    expect(decideWindowOpen('https://example.com/docs', ORIGIN)).toEqual({ action: 'external', url: 'https://example.com/docs' });
  });
  it('shows a console document link in the main window', () => {
    expect(decideWindowOpen('http://127.0.0.1:4010/app/documents?d=doc_abc123', ORIGIN)).toEqual({
      action: 'open-document',
      documentId: 'doc_abc123',
    });
  });
  it('denies http, file, javascript, data, other console pages and garbage', () => {
    for (const bad of [
      'http://example.com/',
      'http://127.0.0.1:4010/app/',
      'http://127.0.0.1:4010/app/documents?d=../../etc',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,hi',
      'about:blank',
      '',
    ]) {
      expect(decideWindowOpen(bad, ORIGIN), bad).toEqual({ action: 'deny' });
    }
  });
});

describe('isTrustedSender', () => {
  it('accepts the console top frame', () => {
    expect(isTrustedSender({ url: 'http://127.0.0.1:4010/app/#token=x', parent: null }, ORIGIN)).toBe(true);
  });
  it('refuses a subframe, even on the console origin', () => {
    expect(isTrustedSender({ url: 'http://127.0.0.1:4010/app/', parent: {} }, ORIGIN)).toBe(false);
  });
  it('refuses a foreign origin top frame', () => {
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null }, ORIGIN)).toBe(false);
    expect(isTrustedSender({ url: 'http://127.0.0.1:4011/', parent: null }, ORIGIN)).toBe(false);
    expect(isTrustedSender({ url: 'about:blank', parent: null }, ORIGIN)).toBe(false);
  });
  it('refuses a missing frame (navigated away or destroyed)', () => {
    expect(isTrustedSender(null, ORIGIN)).toBe(false);
    expect(isTrustedSender(undefined, ORIGIN)).toBe(false);
  });
});
