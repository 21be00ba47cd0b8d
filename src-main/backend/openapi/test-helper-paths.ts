// /v2/test_helpers: the emulator's own routes (docs/api.md section 9), where scripts
// play the recipients and the web application. Admin keys only; not part of the real
// service's contract.
import { ACTIONS } from '../domain/lifecycle.js';
import { newApiKey, newDocument, transitionBody } from '../service-api/schemas.js';
import { exampleDocument } from './examples.js';
import { adminOnly, errors, json, jsonBody, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, ref } from './schema-kit.js';

const tags = ['Test helpers'];

export const testHelperPaths: Record<string, PathItem> = {
  '/v2/test_helpers/documents': {
    post: {
      operationId: 'createDocument',
      tags,
      summary: 'Create a document',
      description: `A DRAFT document; emits \`document.created\`. ${adminOnly}`,
      requestBody: jsonBody(fromZod(newDocument), { title: 'Lease v2', recipients: [{ name: 'Ann', email: 'ann@example.com' }] }),
      responses: { '201': json(ref('Document'), 'Created.'), ...errors({ body: true }) },
    },
  },
  '/v2/test_helpers/documents/{id}/{action}': {
    post: {
      operationId: 'documentAction',
      tags,
      summary: 'Play a lifecycle action',
      description:
        'What a sender or a recipient does in the web application; `recipient_id` names the recipient for view, complete and decline.',
      parameters: [
        pathParam('id', 'The document id (`doc_…`).', exampleDocument.public_id),
        { ...pathParam('action', 'The action; another word is 404.', 'send'), schema: { type: 'string', enum: [...ACTIONS] } },
      ],
      requestBody: jsonBody(fromZod(transitionBody), { recipient_id: exampleDocument.recipients[0]!.public_id }, false),
      responses: { '200': json(ref('Document'), 'The document after the action.'), ...errors({ id: true, body: true, conflict: true }) },
    },
  },
  '/v2/test_helpers/api_keys': {
    post: {
      operationId: 'createApiKey',
      tags,
      summary: 'Make an API key',
      description: "Always in the caller's own company; the key is returned once.",
      requestBody: jsonBody(fromZod(newApiKey), { role: 'member', label: 'CI' }),
      responses: { '201': json(ref('CreatedApiKey'), 'Created.'), ...errors({ body: true }) },
    },
  },
};
