// The OpenAPI document: a third-party validator accepts it, GET /openapi.json serves it
// without a key, and the tests' response check (test/helpers/openapi-check.ts) refuses
// what the document does not say. (The generated files: test/unit/openapi-files.test.ts.)
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '@shared/api-types.js';
import { openApiDocument } from '../../src-main/backend/openapi/document.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { callApi } from '../helpers/http.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { sendRaw } from '../helpers/edge-arbitraries.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has a webhooks entry with a payload schema and an example for every event type', () => {
    const doc = openApiDocument() as any;
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const body = doc.webhooks[type].post.requestBody.content['application/json'];
      expect(body.example.type).toBe(type);
      const name = body.schema.$ref.split('/').pop();
      expect(doc.components.schemas[name].properties.type).toEqual({ const: type });
    }
  });

  it('is served at GET /openapi.json without a key, equal to the source, and refused to a foreign Host', async () => {
    const res = await callApi(t.urls.api_url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(openApiDocument());
    checkAgainstOpenApi('GET', '/openapi.json', res);
    const foreign = await sendRaw(t.urls.api_url, { method: 'GET', path: '/openapi.json', headers: { host: 'evil.example' } });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).error.code).toBe('forbidden');
  });
});

describe('the response check of the API tests', () => {
  it('refuses a body that lacks a field the document requires', async () => {
    const made = await t.api('POST', '/v2/test_helpers/documents', { title: 'T', recipients: [{ name: 'A', email: 'a@example.com' }] });
    expect(made.status).toBe(201);
    const { url: _url, ...withoutUrl } = made.body;
    expect(() => checkAgainstOpenApi('POST', '/v2/test_helpers/documents', { ...made, body: withoutUrl })).toThrow(/url/);
    expect(() => checkAgainstOpenApi('POST', '/v2/test_helpers/documents', { ...made, body: { ...made.body, extra: 1 } })).toThrow(
      /additional/,
    );
  });

  it('refuses a status the operation does not document, and a success from an undocumented route', async () => {
    const got = await t.api('GET', '/v2/webhooks');
    expect(() => checkAgainstOpenApi('GET', '/v2/webhooks', { ...got, status: 206 })).toThrow(/not documented/);
    expect(() => checkAgainstOpenApi('GET', '/v2/not-a-route', got)).toThrow(/not in the OpenAPI document/);
  });

  it('OPTIONS is 404 in the error shape like any method a route lacks, not an undocumented 200', async () => {
    const res = await t.api('OPTIONS', '/v2/webhooks');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('accepts the 404 of an unknown route in the error shape, and refuses another shape', async () => {
    const res = await t.api('GET', '/v2/nothing-here');
    expect(res.status).toBe(404);
    expect(() => checkAgainstOpenApi('GET', '/v2/nothing-here', { ...res, body: { message: 'no' } })).toThrow(/does not match/);
  });
});
