// The UTF-8 bytes of recent event bodies. One event goes to every matching subscription;
// encoding its body once, instead of once for the signature and again inside the HTTP
// client for every attempt, saves two copies of ~1 KB per delivery. The buffers are
// shared by attempts in flight and never written to.

const ENTRIES = 64;

export class BodyBytes {
  private readonly cache = new Map<string, { text: string; bytes: Buffer }>();

  /** The bytes of `text`, the body of event `eventId`. */
  get(eventId: string, text: string): Buffer {
    const hit = this.cache.get(eventId);
    // The same string object in the usual case, so the comparison is immediate.
    if (hit && hit.text === text) return hit.bytes;
    // Events in flight at once are few (subscriptions progress together); a lagging one only costs re-encoding.
    if (this.cache.size >= ENTRIES) this.cache.clear();
    const bytes = Buffer.from(text, 'utf8');
    this.cache.set(eventId, { text, bytes });
    return bytes;
  }
}
