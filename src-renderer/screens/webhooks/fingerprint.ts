// Secret fingerprints: the first 8 hex characters of sha256(secret), computed in the
// page when a subscription is created (the only moment the page holds the secret) and
// kept in localStorage by subscription id. Guards against the secret itself ever being
// stored or shown again: only this fingerprint is kept, which can tell secrets apart
// (the receiver shows the same fingerprint for the secret that verified a delivery)
// but cannot sign anything.
const STORAGE_KEY = 'countersign.secret-fingerprints';

export async function fingerprintOf(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)]
    .slice(0, 4)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

function readAll(): Record<string, string> {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string' && /^[0-9a-f]{8}$/.test(v)) out[k] = v;
    return out;
  } catch {
    return {};
  }
}

export function rememberFingerprint(subscriptionId: string, fingerprint: string): void {
  if (!/^[0-9a-f]{8}$/.test(fingerprint)) throw new Error('not a fingerprint');
  const all = readAll();
  all[subscriptionId] = fingerprint;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // storage full or refused: the fingerprint is simply not remembered
  }
}

export function fingerprintFor(subscriptionId: string): string | undefined {
  return readAll()[subscriptionId];
}

export function forgetFingerprint(subscriptionId: string): void {
  const all = readAll();
  if (!(subscriptionId in all)) return;
  delete all[subscriptionId];
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // nothing to do
  }
}
