// Checks every answer the service API gives the tests against the OpenAPI document
// (src-main/backend/openapi/, the same one GET /openapi.json serves): a documented
// route's status must be documented and its JSON body must match the schema (Ajv,
// JSON Schema 2020-12 with formats); a route the document does not have may only be
// refused, in the one error shape with a 4xx status (so a new route that answers
// anything else fails every test that calls it until it is documented). The console's
// page and private API (/app, /console) share the listener and are left alone.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../../src-main/backend/openapi/document.js';
import type { ApiResponse } from './http.js';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
  item: Json;
}

let cache: { ajv: Ajv2020; routes: Route[]; doc: Json } | undefined;

function load() {
  if (cache) return cache;
  const doc = openApiDocument() as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const routes = Object.entries(doc.paths as Json).map(([template, item]) => ({
    template,
    item: item as Json,
    params: (template.match(/\{/g) ?? []).length,
    // As Express routes: a trailing slash and the letters' case do not matter.
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
  }));
  routes.sort((a, b) => a.params - b.params);
  cache = { ajv, routes, doc };
  return cache;
}

const pointer = (...parts: string[]) => '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validate(schemaPointer: string, body: unknown, what: string): void {
  const { ajv } = load();
  const check = ajv.getSchema(`openapi${schemaPointer}`);
  if (!check) throw new Error(`OpenAPI check: no schema at ${schemaPointer}`);
  if (!check(body)) {
    const problems = ajv.errorsText(check.errors, { separator: '\n  ' });
    throw new Error(`OpenAPI check: ${what} does not match the document:\n  ${problems}\nbody: ${JSON.stringify(body)?.slice(0, 2000)}`);
  }
}

function statusKey(responses: Json, status: number): string | undefined {
  const exact = String(status);
  if (responses[exact]) return exact;
  const range = `${String(status)[0]}XX`;
  if (responses[range]) return range;
  return responses.default ? 'default' : undefined;
}

/** The console's page and private API share the listener but are not the service API (docs/api.md section 1). */
const CONSOLE_PATH = /^\/(app|console)(?:\/|$)/i;

/** Throws (failing the test) when `res` to `method path` is not what the OpenAPI document says. */
export function checkAgainstOpenApi(method: string, path: string, res: ApiResponse): void {
  const { routes, doc } = load();
  const bare = path.split(/[?#]/)[0]!;
  if (CONSOLE_PATH.test(bare)) return;
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const route = routes.find((r) => r.pattern.test(bare) && r.item[verb]);
  const what = `${method} ${path} → ${res.status}`;
  if (!route) {
    if (res.status < 400 || res.status > 499)
      throw new Error(
        `OpenAPI check: ${what}: this route is not in the OpenAPI document (src-main/backend/openapi/); only a 4xx refusal may come from an undocumented route`,
      );
    if (method.toLowerCase() === 'head') return; // a HEAD answer has no body to check
    return validate(pointer('components', 'schemas', 'Error'), res.body, what);
  }
  const responses = route.item[verb].responses as Json;
  const key = statusKey(responses, res.status);
  if (!key) throw new Error(`OpenAPI check: ${what}: status ${res.status} is not documented for ${verb.toUpperCase()} ${route.template}`);
  let response = responses[key] as Json;
  let at = pointer('paths', route.template, verb, 'responses', key);
  if (typeof response.$ref === 'string') {
    at = response.$ref.slice(1);
    response = response.$ref
      .slice(2)
      .split('/')
      .reduce((o: Json, k: string) => o[k], doc);
    at = '#' + at;
  }
  const content = response.content?.['application/json'];
  if (method.toLowerCase() === 'head') return;
  if (!content) {
    if (res.text !== '') throw new Error(`OpenAPI check: ${what}: the document says no body, but one came: ${res.text.slice(0, 200)}`);
    return;
  }
  if (!/^application\/json\b/.test(res.headers.get('content-type') ?? ''))
    throw new Error(`OpenAPI check: ${what}: expected JSON, got Content-Type ${res.headers.get('content-type')}`);
  validate(`${at}/content/application~1json/schema`, res.body, what);
}
