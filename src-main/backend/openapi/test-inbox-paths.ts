// /v2/test_helpers/inboxes: receiver inboxes for API keys (docs/api.md, "Inboxes"), what
// `countersign listen` makes a forwarding inbox with. Admin keys only; the emulator's own.
import { responseModeSchema } from '../receiver/inbox-input.js';
import { newInbox } from '../service-api/test-helper-inboxes.js';
import { adminOnly, errors, json, jsonBody, pathParam, type PathItem } from './operation-kit.js';
import { fromZod, int, iso, nullable, object, prefixed, ref, str, type JsonSchema } from './schema-kit.js';

const tags = ['Test helpers'];
const id = pathParam('id', "An inbox made through this route by the key's company.", 'inb_4ykco3kV9S76HNh5m5E0dH');

const inbox = object({
  id: prefixed('inb_'),
  name: str(),
  created_at: iso(),
  path: str('/in/<id> on the receiver.'),
  local_url: str("The inbox on the receiver's loopback listener."),
  public_url: nullable(str('The inbox through the tunnel, when it is online.')),
  response: fromZod(responseModeSchema),
  response_description: str(),
  capture_count: int(),
});

export const inboxSchemas: Record<string, JsonSchema> = { ReceiverInbox: inbox };

export const testInboxPaths: Record<string, PathItem> = {
  '/v2/test_helpers/inboxes': {
    post: {
      operationId: 'createReceiverInbox',
      tags,
      summary: 'Make a receiver inbox (e.g. forwarding to your app)',
      description: `An inbox on the built-in receiver, owned by the key's company. A forward target must be on this machine unless COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST=1. ${adminOnly}`,
      requestBody: jsonBody(fromZod(newInbox), { name: 'my app', response: { mode: 'forward', url: 'http://localhost:3000/webhooks' } }),
      responses: { '201': json(ref('ReceiverInbox'), 'The inbox.'), ...errors({ body: true }) },
    },
  },
  '/v2/test_helpers/inboxes/{id}': {
    get: {
      operationId: 'getReceiverInbox',
      tags,
      summary: 'Read an inbox made here',
      description: `Inboxes made in the console, or by another company, are 404. ${adminOnly}`,
      parameters: [id],
      responses: { '200': json(ref('ReceiverInbox'), 'The inbox.'), ...errors({ id: true }) },
    },
    delete: {
      operationId: 'deleteReceiverInbox',
      tags,
      summary: 'Delete an inbox made here, with its captures',
      description: `Inboxes made in the console, or by another company, are 404. ${adminOnly}`,
      parameters: [id],
      responses: { '204': { description: 'Deleted.' }, ...errors({ id: true }) },
    },
  },
};
