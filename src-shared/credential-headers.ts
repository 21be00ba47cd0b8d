// Which headers carry credentials: the one rule for every place that hides them (the
// export file, copy as curl for captures and for delivery attempts). Pure: no Node or
// DOM types, so both sides import it.
// Guards against API keys, tokens, cookies and signatures of other schemes leaving in a
// file or a command line that gets shared (bug reports, chats, tickets).
// The rule: Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key,
// X-Console-Token, and any header whose name contains "token", "secret", "key", "auth",
// "signature", "password" or "session", in any letter case. One exception:
// the Standard Webhooks `webhook-signature`, which the inspector needs to tell which
// attempt a capture is and why it does or does not verify; it is an HMAC of one body at
// one time, useless for signing anything else, and the secret behind it never leaves.

const NAMED: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-console-token',
]);

const NAME_PARTS = ['token', 'secret', 'key', 'auth', 'signature', 'password', 'session'] as const;

/** Kept although the rule would match: see above. */
const KEPT: ReadonlySet<string> = new Set(['webhook-signature']);

/** What a credential's value becomes where the header itself is kept (the export file). */
export const CREDENTIAL_REMOVED = '[credential removed]';

export function isCredentialHeader(name: string): boolean {
  const n = name.toLowerCase();
  if (KEPT.has(n)) return false;
  return NAMED.has(n) || NAME_PARTS.some((part) => n.includes(part));
}

/** Header pairs with every credential's value replaced by CREDENTIAL_REMOVED (order and names kept). */
export function withoutCredentialPairs(headers: ReadonlyArray<readonly [string, string]>): [string, string][] {
  return headers.map(([n, v]) => [n, isCredentialHeader(n) ? CREDENTIAL_REMOVED : v]);
}

/** The same for a header record. */
export function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [n, v] of Object.entries(headers)) out[n] = isCredentialHeader(n) ? CREDENTIAL_REMOVED : v;
  return out;
}
