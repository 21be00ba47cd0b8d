// API keys: shown once when made, stored only as a SHA-256 hash (a key is 192 random
// bits, so a fast hash is enough: there is nothing to brute-force). Guards against a
// copied store file handing out working keys, and against an admin minting keys in
// another company (tenant isolation: keys are made only in the caller's own).
import { hash, randomBytes } from 'node:crypto';
import { newId } from '../ids.js';
import { ApiError, notFound } from '../errors.js';
import type { ApiKeyRecord, Company } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import { nowIso, type Actor, type DomainContext } from './context.js';
import type { Role } from '@shared/api-types.js';

export const DEMO_COMPANY = 'Demo Company';
const CONSOLE_LABEL = 'Console session';
const CLI_LABEL = 'Command line (this run)';

// crypto.hash: one call, no Hash object (half the cost of createHash on the hot read).
export const hashKey = (key: string): string => hash('sha256', key, 'hex');

function findOrCreateCompany(ctx: DomainContext, name: string): DeepReadonly<Company> {
  return ctx.store.companies.find((c) => c.name === name) ?? ctx.store.companies.insert({ id: newId('co'), name, created_at: nowIso(ctx) });
}

export function keyView(rec: DeepReadonly<ApiKeyRecord>, company: DeepReadonly<Company> | undefined) {
  return {
    id: rec.id,
    role: rec.role,
    label: rec.label,
    hint: `…${rec.hint}`,
    company: company ? { id: company.id, name: company.name } : undefined,
    created_at: rec.created_at,
  };
}

/** Adds a user and a key for it; returns the key in clear (the only time it exists). Caller commits. */
function mintKey(
  ctx: DomainContext,
  company: DeepReadonly<Company>,
  role: Role,
  label: string,
  key = `cs_${randomBytes(24).toString('base64url')}`,
) {
  const created_at = nowIso(ctx);
  const user = ctx.store.users.insert({ id: newId('usr'), company_id: company.id, role, name: label, created_at });
  const rec = ctx.store.apiKeys.insert({
    id: newId('key'),
    user_id: user.id,
    company_id: company.id,
    role,
    hash: hashKey(key),
    hint: key.slice(-4),
    label,
    created_at,
  });
  return { key, ...keyView(rec, company) };
}

/**
 * A new key in the caller's own company. `company` may only name that company (by name
 * or id): a key in any other, existing or not, would hand the caller another tenant's
 * data or let it squat a name (issue 9 finding 6). The answer is the same for both, so
 * it says nothing about which companies exist.
 */
export async function createApiKey(ctx: DomainContext, actor: Actor, input: { role: Role; company?: string; label?: string }) {
  const company = ctx.store.companies.get(actor.company_id)!;
  if (input.company !== undefined && input.company !== company.name && input.company !== company.id)
    throw new ApiError('forbidden', 'Keys are made only in your own company: leave "company" out, or give its own name.');
  const made = mintKey(ctx, company, input.role, input.label ?? `${input.role} key`);
  await ctx.store.commit();
  ctx.bus.emit({ kind: 'api_key', company_id: company.id, id: made.id });
  return made;
}

export function listApiKeys(ctx: DomainContext, companyId: string) {
  const company = ctx.store.companies.get(companyId);
  return ctx.store.apiKeys.filter((k) => k.company_id === companyId).map((k) => keyView(k, company));
}

export async function revokeApiKey(ctx: DomainContext, actor: Actor, id: string): Promise<void> {
  const rec = ctx.store.apiKeys.get(id);
  if (!rec || rec.company_id !== actor.company_id) throw notFound('API key');
  if (rec.id === actor.key_id)
    throw new ApiError('validation_error', 'A key cannot revoke itself.', {
      fields: [{ field: 'id', message: 'is the key making this request' }],
    });
  ctx.store.apiKeys.remove(id);
  await ctx.store.commit();
  ctx.bus.emit({ kind: 'api_key', company_id: actor.company_id, id });
}

/**
 * Makes sure the company exists and, if a key is given, that an admin with this key
 * does. For those who start the service (the seed below), never for an API caller.
 */
export async function ensureCompanyAdmin(
  ctx: DomainContext,
  companyName: string,
  adminKey: string | undefined,
  label: string,
): Promise<void> {
  const company = findOrCreateCompany(ctx, companyName);
  if (adminKey && !ctx.store.apiKeys.byHash(hashKey(adminKey))) mintKey(ctx, company, 'admin', label, adminKey);
  await ctx.store.commit();
}

/** COUNTERSIGN_ADMIN_KEY: makes sure a Demo Company admin with this key exists. */
export const ensureSeed = (ctx: DomainContext, adminKey: string | undefined): Promise<void> =>
  ensureCompanyAdmin(ctx, DEMO_COMPANY, adminKey, 'COUNTERSIGN_ADMIN_KEY');

/** Removes every key with this label in the company, and its user. Caller commits. */
function revokeLabelled(ctx: DomainContext, companyId: string, label: string): void {
  for (const old of ctx.store.apiKeys.filter((k) => k.label === label && k.company_id === companyId)) {
    ctx.store.apiKeys.remove(old.id);
    ctx.store.users.remove(old.user_id);
  }
}

/** A fresh admin key for this run's console; the previous run's console key is revoked. */
export async function createConsoleSession(ctx: DomainContext) {
  const company = findOrCreateCompany(ctx, DEMO_COMPANY);
  revokeLabelled(ctx, company.id, CONSOLE_LABEL);
  const made = mintKey(ctx, company, 'admin', CONSOLE_LABEL);
  await ctx.store.commit();
  return { api_key: made.key, company_id: company.id, company_name: company.name };
}

/**
 * The command line's key for this run of the service (docs/cli.md, "Which service a
 * command talks to"): a Demo Company admin key, given to the instance file writer in
 * clear once. A previous run's (left by a crash) is revoked first.
 */
export async function createCliToken(ctx: DomainContext): Promise<string> {
  const company = findOrCreateCompany(ctx, DEMO_COMPANY);
  revokeLabelled(ctx, company.id, CLI_LABEL);
  const made = mintKey(ctx, company, 'admin', CLI_LABEL);
  await ctx.store.commit();
  return made.key;
}

/** Revokes the command line's key when the run ends. */
export async function revokeCliToken(ctx: DomainContext): Promise<void> {
  const company = ctx.store.companies.find((c) => c.name === DEMO_COMPANY);
  if (!company) return;
  revokeLabelled(ctx, company.id, CLI_LABEL);
  await ctx.store.commit();
}
