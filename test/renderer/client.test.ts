// The console's one HTTP client against a REAL backend on 127.0.0.1 (port 0, temp data
// folder): both audiences, every method it is used with, raw text bodies, text answers
// with an attachment's file name, one error shape; and the session's key, read from the
// session query's data in the QueryClient making the call (fetching it sets nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Page, Subscription } from '@shared/api-types.js';
import type { Inbox } from '@shared/receiver-types.js';
import { clientBase, configureClient, consoleApi, consoleText, serviceApi, sessionKeyOf } from '../../src-renderer/api/client.js';
import { ApiRequestError } from '../../src-renderer/api/errors.js';
import { sessionQuery } from '../../src-renderer/api/session.js';
import { startConsoleBackend, type TestBackend } from './render-console.js';

let tb: TestBackend;

beforeAll(async () => {
  tb = await startConsoleBackend();
});
afterAll(async () => {
  await tb.destroy();
});

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err as ApiRequestError,
  );

describe('the session key', () => {
  it('is read from the session query of the QueryClient making the call, and only from there', async () => {
    const withSession = new QueryClient();
    const without = new QueryClient();
    const session = await withSession.fetchQuery(sessionQuery());
    expect(session.api_key).toMatch(/^cs_/);
    expect(sessionKeyOf(withSession)).toBe(session.api_key);
    // Fetching the session configured nothing: another QueryClient has no key.
    expect(sessionKeyOf(without)).toBeNull();
    const refused = await rejection(serviceApi('/v2/webhooks', { client: without }));
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect([refused.status, refused.code]).toEqual([401, 'unauthorized']);

    const page = await serviceApi<Page<Subscription>>('/v2/webhooks', { client: withSession, query: { limit: 1 } });
    expect(page.data).toEqual([]);
  });

  it('follows the session in the cache: a key put there is the one sent', async () => {
    const client = new QueryClient();
    client.setQueryData(sessionQuery().queryKey, { api_key: 'cs_not_a_key', company_id: 'co', company_name: 'x' });
    const err = await rejection(serviceApi('/v2/webhooks', { client }));
    expect(err.status).toBe(401);
    expect(err.code).not.toBe('network_error');
    expect(err.message).not.toMatch(/no API key yet/);
  });
});

describe('the console API', () => {
  it('creates, patches and deletes (JSON bodies, 204 answers), with the contract’s errors', async () => {
    const inbox = await consoleApi<Inbox>('/inboxes', { method: 'POST', body: { name: 'Client test' } });
    const patched = await consoleApi<Inbox>(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { name: 'Renamed' } });
    expect(patched.name).toBe('Renamed');
    const invalid = await rejection(consoleApi(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { name: 42 } }));
    expect([invalid.status, invalid.code]).toEqual([422, 'validation_error']);
    expect(invalid.fieldMessage('name')).toBeTruthy();
    expect(await consoleApi(`/inboxes/${inbox.id}`, { method: 'DELETE' })).toBeUndefined();
    const gone = await rejection(consoleApi(`/inboxes/${inbox.id}`, { method: 'PATCH', body: { name: 'x' } }));
    expect(gone.status).toBe(404);
  });

  it('keeps a text answer as text with its attachment’s file name, and sends a raw text body as it is', async () => {
    const exported = await consoleText('/export');
    expect(exported.filename).toMatch(/^countersign-export-.+\.json$/);
    expect(() => JSON.parse(exported.text)).not.toThrow();
    const imported = await consoleApi<{ skipped: number }>('/import', { method: 'POST', rawBody: exported.text });
    expect(typeof imported.skipped).toBe('number');
    const notJson = await rejection(consoleApi('/import', { method: 'POST', rawBody: '{"unfinished":' }));
    expect(notJson.status).toBe(400);
  });

  it('says when the service cannot be reached, in the same shape', async () => {
    const base = clientBase();
    configureClient({ base: 'http://127.0.0.1:9' });
    try {
      const err = await rejection(consoleApi('/status'));
      expect([err.status, err.code]).toEqual([0, 'network_error']);
    } finally {
      configureClient({ base });
    }
  });
});
