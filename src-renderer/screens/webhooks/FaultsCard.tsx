// The subscription's deliberate faults (test helpers): a switch per fault, its setting
// and the share of attempts that carry it. Saving replaces the whole set; attempts that
// carry a fault are marked "fault: …" in the delivery log and the inspector.
import { useEffect, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { FAULT_NAMES, type FaultName, type WebhookFaults } from '@shared/api-types.js';
import { faultsQuery, useSetFaults } from '../../api/faults.js';
import { Card } from '../../components/Card.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';

const ABOUT: Record<FaultName, { label: string; setting?: { key: string; unit: string; initial: number } }> = {
  duplicate: { label: 'Duplicate (the same request twice)' },
  reorder: { label: 'Reorder (hold, then newest first)', setting: { key: 'window_ms', unit: 'ms window', initial: 2000 } },
  delay: { label: 'Delay before sending', setting: { key: 'ms', unit: 'ms', initial: 1000 } },
  stale_timestamp: { label: 'Stale timestamp', setting: { key: 'seconds', unit: 's old', initial: 600 } },
  wrong_secret: { label: 'Sign with a wrong secret' },
  rotation: { label: 'Two signatures (rotation)' },
  redirect: { label: 'Redirect the first attempt', setting: { key: 'status', unit: 'status', initial: 307 } },
};

interface Row {
  on: boolean;
  setting: string;
  share: string;
}

function rowsOf(faults: WebhookFaults): Record<FaultName, Row> {
  const rows = {} as Record<FaultName, Row>;
  for (const name of FAULT_NAMES) {
    const f = faults[name] as (Record<string, number> & { share?: number }) | undefined;
    const setting = ABOUT[name].setting;
    rows[name] = {
      on: f !== undefined,
      setting: String(setting ? (f?.[setting.key] ?? setting.initial) : ''),
      share: String(f?.share ?? 1),
    };
  }
  return rows;
}

/** The PUT body from the form; values are sent as typed, so the API's 422 names what is wrong. */
function faultsOf(rows: Record<FaultName, Row>): WebhookFaults {
  const out: Record<string, Record<string, number>> = {};
  for (const name of FAULT_NAMES) {
    const r = rows[name];
    if (!r.on) continue;
    const entry: Record<string, number> = {};
    const setting = ABOUT[name].setting;
    if (setting) entry[setting.key] = Number(r.setting);
    if (r.share.trim() !== '' && Number(r.share) !== 1) entry.share = Number(r.share);
    out[name] = entry;
  }
  return out as WebhookFaults;
}

export function FaultsCard({ subscriptionId }: { subscriptionId: string }) {
  const current = useQuery(faultsQuery(subscriptionId));
  const save = useSetFaults(subscriptionId);
  const [rows, setRows] = useState<Record<FaultName, Row> | null>(null);
  useEffect(() => {
    if (current.data) setRows(rowsOf(current.data.faults));
  }, [current.data]);
  if (!rows) return null;
  const change = (name: FaultName, patch: Partial<Row>) => setRows({ ...rows, [name]: { ...rows[name], ...patch } });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(faultsOf(rows));
  };
  const active = Object.keys(current.data?.faults ?? {}).length;
  return (
    <Card title="Faults">
      <p className="subtle">
        Make this subscription's deliveries misbehave on purpose (test helpers). {active > 0 ? `${active} on.` : 'None on.'}
      </p>
      <form className="faults-form" onSubmit={submit} noValidate>
        {FAULT_NAMES.map((name) => {
          const about = ABOUT[name];
          const r = rows[name];
          return (
            <div className="fault-row" key={name}>
              <label className="fault-switch">
                <input type="checkbox" checked={r.on} onChange={(e) => change(name, { on: e.target.checked })} />
                {about.label}
              </label>
              {about.setting && (
                <label className="fault-field">
                  <input
                    type="number"
                    value={r.setting}
                    disabled={!r.on}
                    onChange={(e) => change(name, { setting: e.target.value })}
                    aria-label={`${about.label}: ${about.setting.unit}`}
                  />
                  <span className="subtle">{about.setting.unit}</span>
                </label>
              )}
              <label className="fault-field">
                <input
                  type="number"
                  step="0.1"
                  value={r.share}
                  disabled={!r.on}
                  onChange={(e) => change(name, { share: e.target.value })}
                  aria-label={`${about.label}: share of attempts`}
                />
                <span className="subtle">share</span>
              </label>
            </div>
          );
        })}
        <div className="fault-actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save faults'}
          </button>
          {save.isSuccess && !save.isPending && <span role="status">Saved.</span>}
        </div>
      </form>
      {save.error != null && <ErrorNotice error={save.error} title="The faults were not saved." />}
    </Card>
  );
}
