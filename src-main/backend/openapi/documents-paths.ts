// /documents/{id}: get, update, remind (docs/api.md section 8). Any role.
import { documentPatch } from '../service-api/schemas.js';
import { exampleDocument } from './examples.js';
import { errors, json, jsonBody, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, ref } from './schema-kit.js';

const tags = ['Documents'];
const id = pathParam('id', 'The document id (`doc_…`).', exampleDocument.public_id);

export const documentsPaths: Record<string, PathItem> = {
  '/documents/{id}': {
    get: {
      operationId: 'getDocument',
      tags,
      summary: 'Get a document',
      parameters: [id],
      responses: { '200': json(ref('Document'), 'The document.', exampleDocument), ...errors({ id: true }) },
    },
    put: {
      operationId: 'updateDocument',
      tags,
      summary: 'Update a document',
      description: 'Changes the title and/or metadata; emits `document.updated`.',
      parameters: [id],
      requestBody: jsonBody(fromZod(documentPatch), { title: 'Lease v3' }),
      responses: { '200': json(ref('Document'), 'The document as it is now.'), ...errors({ id: true, body: true }) },
    },
  },
  '/documents/{id}/remind': {
    post: {
      operationId: 'remindDocument',
      tags,
      summary: 'Send a reminder',
      description: 'Reminds every recipient who has not signed; emits `document.reminded`. Only while `OUT_FOR_SIGNATURE`.',
      parameters: [id],
      responses: { '200': json(ref('RemindResult'), 'Who was reminded.'), ...errors({ id: true, body: true, conflict: true }) },
    },
  },
};
