// Polls until a condition holds, for tests that wait on real asynchronous work (the
// delivery engine, a receiver's captures): resolves with the first truthy value the
// probe returns, or fails saying what it waited for.

export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 10_000, every = 25): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
