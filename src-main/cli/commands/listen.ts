// `countersign listen --forward-to <url>`: what `stripe listen --forward-to` does, on
// Countersign: a forwarding inbox on the service's receiver in front of the user's app, a
// subscription to it (one per --events type, all with one secret), the secret printed
// once, then one line per delivery attempt (time, event type, webhook-id, the app's
// status, duration). Ctrl-C removes the subscriptions and the inbox it made, and nothing
// else. With --connection <name> the subscriptions are made on that remote deployment
// (../connection.ts) and the inbox on this machine's running Countersign, reached by the
// remote at the inbox's local URL (remote on loopback) or the tunnel's public URL.
// Guards against leaving subscriptions behind (removed on every way out but SIGKILL,
// even when setting up failed halfway), against printing the secret more than once, and
// against subscribing a remote to an address it cannot reach.
import { defineCommand, type CommandContext } from '../define.js';
import { EXIT, unavailable, usageError } from '../exit-codes.js';
import { resolveLocalInstance, resolveTarget, withTargetOptions, type Target, type TargetOptions } from '../target.js';
import { connectionTarget } from '../connection.js';
import { DeliveryWatch, followDeliveries, type DeliveryLine } from './listen-watch.js';
import { EVENT_TYPES } from '@shared/api-types.js';
import { isLoopbackName } from '../../backend/net/address-policy.js';

interface ListenOptions extends TargetOptions {
  forwardTo?: string;
  events?: string;
  pollMs?: string;
  connection?: string;
}

/** Where each part is made: the same service, or (--connection) this machine's and a remote. */
export interface Sides {
  /** Holds the forwarding inbox: this machine's Countersign (or the one --api-url names). */
  local: Target;
  /** Holds the subscriptions and their delivery log. */
  service: Target;
}

export interface MadeInbox {
  id: string;
  local_url: string;
  public_url: string | null;
}

interface Made {
  inboxId: string | null;
  subscriptionIds: string[];
}

/** Whether a service runs on this machine: its API on a loopback name or address (http or https). */
const onThisMachine = (apiUrl: string) => isLoopbackName(new URL(apiUrl).hostname);

function parseForwardTo(raw: string | undefined): string {
  if (!raw) throw usageError('--forward-to <url> is required, e.g. --forward-to http://localhost:3000/webhooks');
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return raw;
  } catch {
    // refused below
  }
  throw usageError(`--forward-to must be an http:// or https:// URL, e.g. http://localhost:3000/webhooks (got "${raw}")`);
}

export function parseEvents(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'all') return ['all'];
  const types = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length) throw usageError(`--events: unknown event type ${unknown.join(', ')} (known: ${EVENT_TYPES.join(', ')})`);
  return types;
}

/** The address the service can reach the inbox at: its own machine's receiver, or the tunnel's public URL. */
export function subscriptionUrl(sides: Sides, inbox: MadeInbox): string {
  if (onThisMachine(sides.service.apiUrl)) return inbox.local_url;
  if (inbox.public_url) return inbox.public_url;
  throw unavailable(
    `${sides.service.description} is not on this machine: its deliveries must reach this machine's receiver through the tunnel's public URL, and the tunnel is not online. Start it on the console's Receiver screen (it needs an ngrok authtoken) and run this again.`,
  );
}

/** The inbox and the subscriptions, made in that order; `made` always says what exists so far. */
async function setUp(sides: Sides, forwardTo: string, types: string[], made: Made) {
  const inbox = await sides.local.call<MadeInbox>('POST', '/v2/test_helpers/inboxes', {
    name: `countersign listen → ${forwardTo}`.slice(0, 100),
    response: { mode: 'forward', url: forwardTo },
  });
  made.inboxId = inbox.id;
  const url = subscriptionUrl(sides, inbox);
  let secret: string | undefined;
  for (const type of types) {
    const sub = await sides.service.call<{ public_id: string; secret_key: string }>('POST', '/v2/webhooks', {
      url,
      type,
      ...(secret ? { secret_key: secret } : {}),
    });
    made.subscriptionIds.push(sub.public_id);
    secret ??= sub.secret_key;
  }
  return { inbox, url, secret: secret! };
}

/** Removes what this run made; says what could not be removed rather than failing. */
async function tearDown(ctx: CommandContext, sides: Sides, made: Made): Promise<string[]> {
  const problems: string[] = [];
  for (const id of made.subscriptionIds) {
    const a = await sides.service
      .request('DELETE', `/v2/webhooks/${id}`, undefined, 10_000)
      .catch((e: Error) => ({ status: 0, body: e.message }));
    if (a.status !== 204 && a.status !== 200 && a.status !== 404) problems.push(`subscription ${id} (${a.status || String(a.body)})`);
  }
  if (made.inboxId) {
    const a = await sides.local
      .request('DELETE', `/v2/test_helpers/inboxes/${made.inboxId}`, undefined, 10_000)
      .catch(() => ({ status: 0 }));
    if (a.status !== 204 && a.status !== 404) problems.push(`inbox ${made.inboxId}`);
  }
  const removed = { subscriptions: made.subscriptionIds, inbox: made.inboxId };
  ctx.out.item({ type: 'stopped', removed, not_removed: problems }, `Stopped: removed ${describeMade(made)}.`);
  if (problems.length) ctx.out.error(`could not remove ${problems.join(', ')}; delete them in the console`, 'cleanup_failed');
  return problems;
}

const describeMade = (m: Made) =>
  [m.subscriptionIds.length ? `subscription ${m.subscriptionIds.join(', ')}` : '', m.inboxId ? `inbox ${m.inboxId}` : '']
    .filter(Boolean)
    .join(' and ') || 'nothing';

function deliveryText(d: DeliveryLine): string {
  const answer = d.status !== null ? `${d.status}` : `no answer (${d.error ?? 'unknown'})`;
  const retry = d.attempt > 1 ? ` (attempt ${d.attempt})` : '';
  const time = d.time ? d.time.replace('T', ' ').slice(0, 19) : '-';
  return `${time}  ${d.event_type.padEnd(28)}  ${d.webhook_id}  → ${answer}  ${d.duration_ms ?? '?'} ms${retry}`;
}

/** Which service holds what (see Sides); a service off this machine without --connection is refused before anything is made. */
async function resolveSides(opts: ListenOptions): Promise<Sides> {
  if (opts.connection !== undefined) {
    if (opts.apiUrl !== undefined || opts.apiKey !== undefined)
      throw usageError('--connection names the service to subscribe on: give it, or --api-url with --api-key, not both');
    const local = await resolveLocalInstance(opts, 'listen --connection (for its connections and the inbox on its receiver)');
    return { local, service: await connectionTarget(local, opts.connection) };
  }
  const target = await resolveTarget(opts);
  if (!onThisMachine(target.apiUrl)) {
    await target.close();
    throw unavailable(
      `${target.description} is not on this machine: listen makes its inbox on that service's own receiver, which would forward to a URL on that machine, not this one. For a real deployment, add it as a connection (console: Settings → Connections) and use --connection <name>: the inbox is then made here and the remote reaches it through the tunnel.`,
    );
  }
  return { local: target, service: target };
}

async function run(ctx: CommandContext, sides: Sides, opts: ListenOptions, forwardTo: string, types: string[], made: Made) {
  const { out, signal } = ctx;
  const { inbox, url, secret } = await setUp(sides, forwardTo, types, made);
  if (signal.aborted) return;
  const via = sides.service === sides.local ? '' : `${sides.service.description} sends to `;
  out.item(
    {
      type: 'ready',
      forward_to: forwardTo,
      inbox_id: inbox.id,
      inbox_url: inbox.local_url,
      subscription_url: url,
      connection: opts.connection ?? null,
      subscriptions: made.subscriptionIds,
      events: types,
      secret,
    },
    `Ready: ${via}${url}, which forwards to ${forwardTo} (events: ${types.join(', ')}). Your webhook signing secret is ${secret} (Ctrl-C to stop)`,
  );
  const pollMs = opts.pollMs === undefined ? 500 : Number(opts.pollMs);
  const watch = new DeliveryWatch(sides.service, made.subscriptionIds);
  await watch.prime();
  await followDeliveries(ctx, watch, sides.service, pollMs, deliveryText);
}

export const listenCommand = defineCommand<ListenOptions>(
  (cmd) =>
    withTargetOptions(
      cmd
        .name('listen')
        .summary('forward deliveries to your app on this machine, like stripe listen --forward-to')
        .description(
          'Make a forwarding inbox in front of your app and a subscription to it, print the signing secret once, ' +
            'then one line per delivery with your app’s answer. Ctrl-C removes the subscription and the inbox.',
        )
        .option('--forward-to <url>', 'your app’s webhook URL, e.g. http://localhost:3000/webhooks')
        .option('--events <types>', 'event types to subscribe to, comma separated (default: all)')
        .option('--connection <name>', 'subscribe on this connection of the console (a real deployment) instead of this machine’s service')
        .option('--poll-ms <ms>', 'how often to look for new deliveries (default 500)'),
    ).addHelpText(
      'after',
      '\nExamples:\n  countersign listen --forward-to http://localhost:3000/webhooks --events document.completed,document.declined\n' +
        '  PROD_KEY=… countersign listen --forward-to http://localhost:3000/webhooks --connection Production\n',
    ),
  async (ctx, _args, opts) => {
    const forwardTo = parseForwardTo(opts.forwardTo);
    const types = parseEvents(opts.events);
    if (opts.pollMs !== undefined && !(Number.isInteger(Number(opts.pollMs)) && Number(opts.pollMs) >= 50))
      throw usageError(`--poll-ms must be a whole number of milliseconds, at least 50 (got "${opts.pollMs}")`);
    if (opts.connection !== undefined && opts.connection.trim() === '') throw usageError('--connection needs a connection’s name');
    const sides = await resolveSides(opts);
    ctx.out.note(
      sides.service === sides.local
        ? `Using ${sides.local.description}`
        : `Using ${sides.service.description}, with the inbox on ${sides.local.description}`,
    );
    const made: Made = { inboxId: null, subscriptionIds: [] };
    try {
      await run(ctx, sides, opts, forwardTo, types, made);
    } finally {
      if (made.inboxId || made.subscriptionIds.length) await tearDown(ctx, sides, made);
      await sides.local.close();
    }
    return ctx.signal.aborted ? EXIT.interrupted : EXIT.ok;
  },
);
