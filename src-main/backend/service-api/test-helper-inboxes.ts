// /v2/test_helpers/inboxes (local emulator only, admin key): receiver inboxes for scripts
// and the command line (`countersign listen` makes a forwarding inbox here and removes it
// on Ctrl-C), which hold an API key, not the console's token. Guards against one company
// reaching another's: an inbox made here belongs to the key's company, and only that
// company can read or delete it here (anything else is 404, as for every id of another
// company); captures are not served here (the console shows them). The forward target
// rule of the receiver applies unchanged (receiver/forward-target.ts).
import { Router } from 'express';
import { notFound } from '../errors.js';
import { parse } from '../http/validate.js';
import { inboxInputSchema } from '../receiver/inbox-input.js';
import type { InboxView, Receiver } from '../receiver/receiver.js';
import { actorOf } from './auth.js';

/** An inbox as this route shows it: no secret fingerprints or linked subscriptions of others. */
function view(v: InboxView) {
  const { secret: _secret, ...rest } = v;
  return rest;
}

/** The body of POST /v2/test_helpers/inboxes: the console's inbox body without a secret. */
export const newInbox = inboxInputSchema.omit({ secret: true });

export function testHelperInboxRoutes(receiver: Receiver): Router {
  const r = Router();
  const own = (companyId: string, id: string) => {
    const rec = receiver.inboxes.record(id);
    if (!rec || rec.company_id !== companyId) throw notFound('inbox');
    return rec;
  };
  r.post('/inboxes', async (req, res) => {
    const input = parse(newInbox, req.body);
    res.status(201).json(view(await receiver.inboxes.create(input, undefined, actorOf(res).company_id)));
  });
  r.get('/inboxes/:id', (req, res) => {
    const rec = own(actorOf(res).company_id, req.params.id);
    res.json(view(receiver.inboxes.view(rec)));
  });
  r.delete('/inboxes/:id', async (req, res) => {
    own(actorOf(res).company_id, req.params.id);
    await receiver.inboxes.remove(req.params.id);
    res.status(204).end();
  });
  return r;
}
