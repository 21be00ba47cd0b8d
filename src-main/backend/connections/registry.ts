// The connections to real deployments of the service: kept in the store (one extension,
// committed before a call answers), their keys wherever keyring.ts says. Creating one
// is all or nothing: a key written to the keychain is removed again if the store
// cannot commit the connection.
import type { Clock } from '../clock.js';
import { isoNow } from '../clock.js';
import { ApiError, notFound, validationError } from '../errors.js';
import { newId } from '../ids.js';
import type { Store } from '../store/store.js';
import type { Connection, KeyStorageInfo, NewConnection, TunnelSubscription } from '@shared/connection-types.js';
import { checkNamedSource, HEADLESS_KEY_NOTE, resolveKey, type ConnectionKeyring, type Env } from './keyring.js';
import { CONNECTIONS_EXTENSION, type ConnectionRecord, type ConnectionsData } from './types.js';

export const MAX_CONNECTIONS = 50;

/** What a connection is made from: the wire type (one definition, in src-shared). */
export type ConnectionInput = NewConnection;

export interface ConnectionRegistryDeps {
  store: Store;
  clock: Clock;
  env: Env;
  keyring?: ConnectionKeyring;
}

const view = ({ tunnel_subscriptions: _t, ...c }: ConnectionRecord): Connection => c;

export class ConnectionRegistry {
  constructor(private readonly deps: ConnectionRegistryDeps) {}

  keyStorage(): KeyStorageInfo {
    const k = this.deps.keyring;
    if (k?.available()) return { keychain: true, note: k.note() };
    return { keychain: false, note: k ? `${k.note()} ${HEADLESS_KEY_NOTE}` : HEADLESS_KEY_NOTE };
  }

  list(): Connection[] {
    return this.records().map(view);
  }

  /** The connection's record, or 404. */
  record(id: string): ConnectionRecord {
    const rec = this.records().find((c) => c.id === id);
    if (!rec) throw notFound('connection');
    return rec;
  }

  get(id: string): Connection {
    return view(this.record(id));
  }

  key(id: string): Promise<string> {
    return resolveKey(this.record(id), this.deps.env, this.deps.keyring);
  }

  async create(input: ConnectionInput): Promise<Connection> {
    const all = this.records();
    if (all.length >= MAX_CONNECTIONS) throw new ApiError('invalid_request', `At most ${MAX_CONNECTIONS} connections can be kept.`);
    if (all.some((c) => c.name.toLowerCase() === input.name.toLowerCase()))
      throw validationError([{ field: 'name', message: 'another connection already has this name' }]);
    const source = await this.source(input);
    const rec: ConnectionRecord = {
      id: newId('conn'),
      name: input.name,
      base_url: input.base_url,
      app_url: input.app_url,
      key_source: source.kind,
      key_ref: source.ref,
      created_at: isoNow(this.deps.clock),
      tunnel_subscriptions: [],
    };
    if (source.kind === 'keychain') await this.deps.keyring!.set(rec.id, input.api_key!);
    try {
      await this.save([...all, rec]);
    } catch (err) {
      if (source.kind === 'keychain') await this.deps.keyring!.delete(rec.id).catch(() => undefined);
      throw err;
    }
    return view(rec);
  }

  async remove(id: string): Promise<void> {
    const rec = this.record(id);
    await this.save(this.records().filter((c) => c.id !== id));
    if (rec.key_source === 'keychain') await this.deps.keyring?.delete(id).catch(() => undefined);
  }

  /** Records (or, with `url` null, forgets) a subscription made on the remote for an inbox. */
  async noteTunnelSubscription(
    id: string,
    subscriptionId: string,
    entry: Omit<TunnelSubscription, 'subscription_id'> | null,
  ): Promise<void> {
    const all = this.records();
    const rec = all.find((c) => c.id === id);
    if (!rec) return;
    const kept = rec.tunnel_subscriptions.filter((s) => s.subscription_id !== subscriptionId);
    if (!entry && kept.length === rec.tunnel_subscriptions.length) return;
    const next = { ...rec, tunnel_subscriptions: entry ? [...kept, { subscription_id: subscriptionId, ...entry }] : kept };
    await this.save(all.map((c) => (c.id === id ? next : c)));
  }

  private async source(input: ConnectionInput): Promise<{ kind: Connection['key_source']; ref: string | null }> {
    const given = (['api_key', 'api_key_env', 'api_key_file'] as const).filter((f) => input[f] !== undefined);
    if (given.length !== 1)
      throw validationError([{ field: 'api_key', message: 'give exactly one of api_key, api_key_env or api_key_file' }]);
    if (input.api_key !== undefined) {
      if (!this.deps.keyring?.available())
        throw validationError([{ field: 'api_key', message: `cannot be kept here. ${this.keyStorage().note}` }]);
      return { kind: 'keychain', ref: null };
    }
    const kind = input.api_key_env !== undefined ? 'env' : 'file';
    const ref = (input.api_key_env ?? input.api_key_file)!;
    const problem = await checkNamedSource(kind, ref, this.deps.env);
    if (problem) throw validationError([{ field: kind === 'env' ? 'api_key_env' : 'api_key_file', message: problem }]);
    return { kind, ref };
  }

  private records(): ConnectionRecord[] {
    const data = this.deps.store.extensions.get<ConnectionsData>(CONNECTIONS_EXTENSION);
    return Array.isArray(data?.connections) ? (structuredClone(data.connections) as ConnectionRecord[]) : [];
  }

  private async save(connections: ConnectionRecord[]): Promise<void> {
    const data: ConnectionsData = { version: 1, connections };
    this.deps.store.extensions.set(CONNECTIONS_EXTENSION, data);
    await this.deps.store.commit();
  }
}
