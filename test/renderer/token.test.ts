// The console token leaves the address bar at once and lives in sessionStorage.
import { beforeEach, describe, expect, it } from 'vitest';
import { captureConsoleToken, forgetConsoleToken } from '../../src-renderer/api/token.js';

describe('captureConsoleToken', () => {
  beforeEach(() => forgetConsoleToken());

  it('takes the token from the fragment, strips it, keeps the path and query', () => {
    window.history.replaceState(null, '', '/app/documents?d=doc_1#token=abc123');
    expect(captureConsoleToken()).toBe('abc123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/app/documents?d=doc_1');
    expect(sessionStorage.getItem('countersign.console-token')).toBe('abc123');
  });

  it('finds it in sessionStorage after a reload, and returns null when there is none', () => {
    window.history.replaceState(null, '', '/app/#token=xyz');
    captureConsoleToken();
    window.history.replaceState(null, '', '/app/settings/webhooks');
    expect(captureConsoleToken()).toBe('xyz');
    forgetConsoleToken();
    expect(captureConsoleToken()).toBeNull();
  });
});
