// Keeps process.nextTick cheap for the life of the process, whatever the garbage
// collector does. node builds each tick as an object literal whose first keys are
// computed (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`).
// V8 caches how such a literal adds each key through a feedback slot that holds the
// object's hidden class (map) before that key, weakly, and that goes megamorphic, for
// good, the first time it sees another map. Ticks live for microseconds: a full
// collection that runs while none is alive (at idle, after a request's ticks ran, which
// is when V8's memory reducer and idle-time collections run) frees their maps, the next
// tick builds new ones, and from then on every tick of the process defines its keys
// through V8's runtime (about 0.4 µs a tick, 2-3 µs on each GET /documents/{id},
// which makes several ticks). Measured: half the starts of the service ended up so;
// docs/benchmark.md ("Figure 1 and process.nextTick"). Holding one object built the
// same way keeps the maps alive, so the slots stay monomorphic.
import { AsyncResource } from 'node:async_hooks';

let kept: object | null | undefined; // undefined: not asked yet; null: asked, tick not run (or nothing to pin)

/** Pins the hidden classes of node's tick objects for the process's life; idempotent. */
export function keepTickObjectShape(): void {
  if (kept !== undefined) return;
  kept = null;
  // node's own async-id symbols, as an AsyncResource carries them (no async hook is
  // enabled: an enabled hook would slow every promise of the process for good).
  const symbols = Object.getOwnPropertySymbols(new AsyncResource('CountersignTickShape'));
  const asyncId = symbols.find((s) => s.description === 'async_id_symbol');
  const triggerId = symbols.find((s) => s.description === 'trigger_async_id_symbol');
  if (!asyncId || !triggerId) return; // another node's internals: nothing to pin
  // Built inside a tick, so node's own maps exist already and this literal walks the
  // same transitions; small integers fit whatever field representation they have (a
  // double here would change it, and change the maps it means to keep).
  process.nextTick(() => {
    kept = { [asyncId]: 0, [triggerId]: 0, callback: noop, args: undefined };
  });
}

function noop(): void {}
