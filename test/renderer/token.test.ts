// The console token leaves the address bar at once and is kept nowhere a script could
// read later (the session cookie, set by signing in, speaks for other tabs).
import { describe, expect, it } from 'vitest';
import { captureConsoleToken, tokenFromPaste } from '../../src-renderer/api/token.js';

describe('captureConsoleToken', () => {
  it('takes the token from the fragment, strips it, keeps the path and query', () => {
    window.history.replaceState(null, '', '/app/documents?d=doc_1#token=abc123');
    expect(captureConsoleToken()).toBe('abc123');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/app/documents?d=doc_1');
    expect(Object.keys(sessionStorage)).toEqual([]);
    expect(Object.keys(localStorage)).toEqual([]);
  });

  it('returns null without one (a reload, another tab): the session cookie speaks then', () => {
    window.history.replaceState(null, '', '/app/#token=xyz');
    expect(captureConsoleToken()).toBe('xyz');
    expect(captureConsoleToken()).toBeNull();
  });
});

describe('tokenFromPaste', () => {
  it('takes the token itself, or the token of a pasted console link', () => {
    expect(tokenFromPaste('  abc123 \n')).toBe('abc123');
    expect(tokenFromPaste('http://127.0.0.1:4010/app/#token=t0k%2Ben')).toBe('t0k+en');
    expect(tokenFromPaste('http://127.0.0.1:4010/app/#other=1')).toBe('');
  });
});
