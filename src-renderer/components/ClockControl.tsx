// The test clock's control in the frame: the service's time beside the wall clock,
// freeze / resume, and advance by a preset or a number of seconds. An advance answers
// once every retry that fell due in it has been made, so the screens behind it are
// already up to date when it ends.
import { useEffect, useState, type FormEvent } from 'react';
import { setServiceClock, useWallNow } from '../now.js';
import { useQuery } from '@tanstack/react-query';
import { clockQuery, useClockAction, type ClockAction } from '../api/clock.js';
import { ApiRequestError } from '../api/errors.js';

const PRESETS: [label: string, seconds: number][] = [
  ['+5 s', 5],
  ['+5 min', 300],
  ['+1 h', 3_600],
  ['+1 day', 86_400],
];

/** Ahead or behind the wall clock, in words: "27 h 35 min ahead". */
export function offsetText(seconds: number): string {
  const abs = Math.abs(seconds);
  if (abs < 1) return 'on wall time';
  const d = Math.floor(abs / 86_400);
  const h = Math.floor((abs % 86_400) / 3_600);
  const m = Math.floor((abs % 3_600) / 60);
  const s = Math.floor(abs % 60);
  const parts = d ? [`${d} d`, h && `${h} h`] : h ? [`${h} h`, m && `${m} min`] : m ? [`${m} min`, s && `${s} s`] : [`${s} s`];
  return `${parts.filter(Boolean).join(' ')} ${seconds > 0 ? 'ahead' : 'behind'}`;
}

const fmt = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function ClockControl() {
  const clock = useQuery(clockQuery());
  const act = useClockAction();
  const [seconds, setSeconds] = useState('');
  const wall = useWallNow(1000);
  const view = clock.data;
  // Every relative time on the page is measured against the service's clock.
  useEffect(() => {
    if (view) setServiceClock({ offsetMs: view.offset_seconds * 1000, frozenAt: view.frozen ? Date.parse(view.now) : null });
  }, [view]);
  if (!view) return null;
  // While running, the service's time moves with the wall clock from the instant it was read.
  const serviceNow = view.frozen ? Date.parse(view.now) : wall + view.offset_seconds * 1000;
  const run = (a: ClockAction) => act.mutate(a);
  const advanceBy = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(seconds);
    if (seconds.trim() !== '' && Number.isFinite(n)) run({ kind: 'advance', seconds: n });
  };
  const error = act.error instanceof ApiRequestError ? act.error.message : act.error ? 'The clock could not be changed.' : null;
  return (
    <section className="clock-control" aria-label="Test clock">
      <div className="clock-head">
        <span className="clock-title">Service time</span>
        <span className={`badge ${view.frozen ? 'badge-info' : 'badge-neutral'}`}>{view.frozen ? 'Frozen' : 'Running'}</span>
      </div>
      <p className="clock-now" data-testid="clock-now">
        {fmt(serviceNow)}
      </p>
      <p className="clock-wall">
        Wall {new Date(wall).toLocaleTimeString()} · <span data-testid="clock-offset">{offsetText(view.offset_seconds)}</span>
      </p>
      <div className="clock-buttons">
        {view.frozen ? (
          <button type="button" className="btn btn-small" disabled={act.isPending} onClick={() => run({ kind: 'resume' })}>
            Resume
          </button>
        ) : (
          <button type="button" className="btn btn-small" disabled={act.isPending} onClick={() => run({ kind: 'freeze' })}>
            Freeze
          </button>
        )}
        {PRESETS.map(([label, s]) => (
          <button
            key={s}
            type="button"
            className="btn btn-small"
            disabled={act.isPending}
            onClick={() => run({ kind: 'advance', seconds: s })}
            aria-label={`Advance ${label.slice(1)}`}
          >
            {label}
          </button>
        ))}
      </div>
      <form className="clock-advance" onSubmit={advanceBy} noValidate>
        <label>
          <span className="visually-hidden">Seconds to advance</span>
          <input
            type="number"
            min="1"
            step="any"
            inputMode="decimal"
            placeholder="seconds"
            value={seconds}
            onChange={(e) => setSeconds(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-small" disabled={act.isPending || seconds.trim() === ''}>
          {act.isPending ? 'Advancing…' : 'Advance'}
        </button>
      </form>
      {error && (
        <p className="clock-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
