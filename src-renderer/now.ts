// The page's one clock: a single one-second tick that every relative time and the test
// clock's readout follow (no component keeps its own timer), and the service's time
// beside the wall clock. The service's clock can be frozen or moved (the test clock,
// api/clock.ts): "3 minutes ago" is measured against the service's now, so an event
// the service just stamped never reads as being in the future.
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let service: { offsetMs: number; frozenAt: number | null } = { offsetMs: 0, frozenAt: null };

function notify(): void {
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(notify, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The service's now, in ms. */
export function serviceNow(): number {
  return service.frozenAt ?? Date.now() + service.offsetMs;
}

/** Told by whoever reads the service's test clock (ClockControl): its offset, or the instant it is frozen at. */
export function setServiceClock(next: { offsetMs: number; frozenAt: number | null }): void {
  if (next.offsetMs === service.offsetMs && next.frozenAt === service.frozenAt) return;
  service = next;
  notify();
}

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;

/** The service's now, moving in steps of `stepMs` (a component re-renders only when it moves a step). */
export function useServiceNow(stepMs = 1000): number {
  return useSyncExternalStore(subscribe, () => floorTo(serviceNow(), stepMs));
}

/** The wall clock's now, in steps of `stepMs`. */
export function useWallNow(stepMs = 1000): number {
  return useSyncExternalStore(subscribe, () => floorTo(Date.now(), stepMs));
}
