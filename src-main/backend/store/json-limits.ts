// Guards the store against user JSON that would poison it: a value nested deeply
// enough overflows JSON.stringify's stack, and then every later write of the whole
// store fails. Checked iteratively (no recursion) before anything reaches the store.

export interface JsonLimits {
  maxDepth: number;
  maxBytes: number;
}

export const METADATA_LIMITS: JsonLimits = { maxDepth: 8, maxBytes: 16 * 1024 };

/** Returns a reason when `value` is nested deeper than allowed or too large once serialised; null when fine. */
export function checkJsonLimits(value: unknown, limits: JsonLimits): string | null {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limits.maxDepth) return `is nested more than ${limits.maxDepth} levels deep`;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) stack.push({ v: child, depth: depth + 1 });
  }
  const size = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (size > limits.maxBytes) return `is ${size} bytes once serialised; the limit is ${limits.maxBytes}`;
  return null;
}
