// Checks metadata JSON in the page before it is sent, with the service's own limits
// (docs/api.md section 8): an object, at most 50 keys, each at most 40 characters.
// The service checks again; this only spares a round trip and says what is wrong.

export type MetadataCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export function checkMetadata(text: string): MetadataCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : '';
    return { ok: false, message: `Not valid JSON${detail ? `: ${detail}` : '.'}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'Metadata must be a JSON object, like {"key": "value"}.' };
  const keys = Object.keys(value);
  if (keys.length > 50) return { ok: false, message: `Metadata may have at most 50 keys (this has ${keys.length}).` };
  const long = keys.find((k) => k.length > 40);
  if (long !== undefined) return { ok: false, message: `Keys may be at most 40 characters: "${long.slice(0, 40)}…" is ${long.length}.` };
  return { ok: true, value: value as Record<string, unknown> };
}

export function formatMetadata(value: Record<string, unknown>): string {
  return JSON.stringify(value, null, 2);
}
