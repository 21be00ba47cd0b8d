// The history's in-memory index, let go while the service idles and made again from the
// files when it is next needed (docs/storage.md, "The delivery history in memory"; docs/
// architecture.md, "Memory"). An idle service's history is all on disk: its segments and,
// for every closed one, the sidecar that start-up loads instead of reading the segment. So
// when the idle collector is about to give memory back (idle-collector.ts), each open
// history whose writer, sidecar queue and retention have nothing under way drops its whole
// index (~200-350 bytes a delivery: 40 MiB at the bench's 185,000); the first call that
// needs it again rebuilds it synchronously, as start-up would (loader.ts reloadSegments:
// every sidecar read whole, the open segment scanned), in the middle of that call. That
// costs what start-up costs for the history (0.2-0.4 s at 200,000 deliveries, ~1.5 s at
// 1,000,000 on the shared 2-core machine), once per idle stretch that was followed by work.
// An index made less than HOLD_MS ago (loaded at open, or rebuilt) is not let go: a
// service that wakes every few seconds (a retry, a console polling now and then) keeps it.
import type { Clock } from '../../clock.js';
import { HistoryIndex } from './index-state.js';
import { reloadSegments } from './loader.js';
import type { Segment } from './segments.js';

/** How long an index is kept at least once made, in ms (so that a trickle of work does not rebuild it over and over). */
export const HOLD_MS = 60_000;

/** Runs a rebuild: memory-settings.ts makes it hold the young generation at its size meanwhile. */
let aroundRebuild: (rebuild: () => void) => void = (rebuild) => rebuild();

/**
 * Sets what every rebuild runs in. A rebuild allocates in one turn what the whole index
 * holds, and V8 grew the young generation to its largest size (32 MiB) within that turn,
 * past the cap that memory-settings.ts sets only after a turn; it stayed there as long as
 * requests kept coming (the bench's soak: 16-24 MiB more resident).
 */
export function setAroundRebuild(fn: (rebuild: () => void) => void): void {
  aroundRebuild = fn;
}

/** Every HeldIndex of an open history, for the idle collection (weakly: a history never closed is not kept alive). */
const holders = new Set<WeakRef<HeldIndex>>();

/** Lets go of the index of every open history that can let go now; how many did. */
export function releaseIdleIndexes(): number {
  let n = 0;
  for (const ref of holders) {
    const held = ref.deref();
    if (!held) holders.delete(ref);
    else if (held.release()) n++;
  }
  return n;
}

/**
 * Whether an open history could let its index go now (quiet, made HOLD_MS ago or more).
 * The idle collector asks, so that a service whose last collection came while its index was
 * still young (the first quiet seconds after a start-up with a long history) collects again
 * once it may let it go, instead of keeping it for as long as it idles.
 */
export function indexReleaseDue(): boolean {
  for (const ref of holders) if (ref.deref()?.releasable()) return true;
  return false;
}

/** What a HeldIndex asks of its log. */
export interface HeldIndexHost {
  /** The log's segments, oldest first (the last one open). */
  segments(): Segment[];
  /** Whether nothing is being written, retained or indexed now: only then is the index let go. */
  quiet(): boolean;
  /** The index was let go: what the log keeps about its rows is to go too. */
  released(): void;
}

export class HeldIndex {
  private idx: HistoryIndex | null = new HistoryIndex();
  /** Deliveries in the index when it was let go (to make room for them at once when it is rebuilt). */
  private size = 0;
  /** When the index was made (loaded at open, or rebuilt). */
  private madeAt = -Infinity;
  private readonly ref = new WeakRef(this);
  /** Rebuilds so far (for tests and the docs' measurements). */
  reloads = 0;

  constructor(
    private readonly clock: Clock,
    private readonly log: HeldIndexHost,
  ) {}

  /** The index, rebuilt from the files first if it was let go. */
  get index(): HistoryIndex {
    return this.idx ?? this.reload();
  }

  /** Whether the index is in memory now. */
  get held(): boolean {
    return this.idx !== null;
  }

  /** A new index (start-up, a rollback); from now on the idle collection may let it go. */
  set(idx: HistoryIndex): void {
    this.idx = idx;
    this.madeAt = this.clock.now();
    holders.add(this.ref);
  }

  /** Whether release() would let the index go now. */
  releasable(): boolean {
    return this.idx !== null && this.clock.now() - this.madeAt >= HOLD_MS && this.log.quiet();
  }

  /** Lets the index go if the log is quiet and it was not rebuilt just now: true if it did. */
  release(): boolean {
    if (!this.releasable() || !this.idx) return false;
    this.size = this.idx.d.size;
    this.idx = null;
    this.log.released();
    return true;
  }

  private reload(): HistoryIndex {
    const idx = new HistoryIndex(true);
    aroundRebuild(() => reloadSegments(this.log.segments(), idx, this.size));
    this.reloads++;
    this.madeAt = this.clock.now();
    return (this.idx = idx);
  }
}
