// Webhooks → Scenarios: the scenarios that ship, each run on the test clock with its
// steps shown beside the deliveries they caused (the same run as `countersign scenario
// run`), and the demo packs: load one, or save what is here as a pack for another machine.
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScenarioRun } from '@shared/scenario-types.js';
import { demoPackListQuery, exportDemoPack, scenarioListQuery, useLoadDemoPack, useRunScenario } from '../../api/scenarios.js';
import { Card } from '../../components/Card.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useTitle } from '../../use-title.js';
import { ScenarioRunReport } from './ScenarioRunReport.js';

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : what.endsWith('x') ? 'es' : 's'}`;

export function ScenariosScreen() {
  useTitle('Scenarios');
  const [run, setRun] = useState<ScenarioRun | null>(null);
  return (
    <>
      <PageHeader title="Scenarios">
        <p className="page-lede">
          Steps and expectations played on the test clock: documents made and signed, retries played in seconds, and what the endpoint
          should have received checked. The same runs as <span className="mono">countersign scenario run</span>, which CI uses.
        </p>
      </PageHeader>
      <ScenarioList onRun={setRun} />
      {run && <ScenarioRunReport run={run} />}
      <DemoPacks onRun={setRun} />
    </>
  );
}

function ScenarioList({ onRun }: { onRun: (r: ScenarioRun) => void }) {
  const list = useQuery(scenarioListQuery());
  const runner = useRunScenario();
  return (
    <Card title="Scenarios that ship">
      {list.error != null && <ErrorNotice error={list.error} title="The scenarios could not be listed." />}
      <ul className="scenario-list">
        {list.data?.data.map((s) => (
          <li key={s.name} className="scenario-row">
            <div className="scenario-row-text">
              <span className="mono">{s.name}</span>
              {s.source === 'demo_pack' && <span className="badge badge-neutral">demo pack</span>}
              <p className="subtle">{s.description}</p>
            </div>
            <button
              type="button"
              className="btn"
              disabled={runner.isPending}
              onClick={() => runner.mutate(s.name, { onSuccess: onRun })}
              aria-label={`Run ${s.name}`}
            >
              {runner.isPending && runner.variables === s.name ? 'Running…' : 'Run'}
            </button>
          </li>
        ))}
      </ul>
      {runner.error != null && <ErrorNotice error={runner.error} title="The scenario could not run." />}
    </Card>
  );
}

function DemoPacks({ onRun }: { onRun: (r: ScenarioRun) => void }) {
  const packs = useQuery(demoPackListQuery());
  const load = useLoadDemoPack();
  const qc = useQueryClient();
  const [keepPeople, setKeepPeople] = useState(false);
  const [loaded, setLoaded] = useState<string | null>(null);
  const save = async () => {
    const pack = await exportDemoPack(keepPeople, qc);
    const url = URL.createObjectURL(new Blob([JSON.stringify(pack, null, 2) + '\n'], { type: 'application/json' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: 'pack.json' });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Card title="Demo packs">
      <p className="subtle">
        A pack is the data a demo starts from and a scenario played on it. A pack loaded adds to what is already here.
      </p>
      <ul className="scenario-list">
        {packs.data?.data.map((p) => (
          <li key={p.name} className="scenario-row">
            <div className="scenario-row-text">
              <span className="mono">{p.name}</span>
              <p className="subtle">{p.description}</p>
            </div>
            <button
              type="button"
              className="btn"
              disabled={load.isPending}
              aria-label={`Load demo ${p.name}`}
              onClick={() =>
                load.mutate(p.name, {
                  onSuccess: (r) => {
                    setLoaded(`${r.name}: ${count(r.document_ids.length, 'document')}, ${count(r.inbox_ids.length, 'inbox')}`);
                    if (r.run) onRun(r.run);
                  },
                })
              }
            >
              {load.isPending && load.variables === p.name ? 'Loading…' : 'Load demo'}
            </button>
          </li>
        ))}
      </ul>
      {loaded && (
        <p role="status" className="subtle">
          Loaded {loaded}.
        </p>
      )}
      {load.error != null && <ErrorNotice error={load.error} title="The demo pack could not be loaded." />}
      <div className="scenario-export">
        <label className="checkbox">
          <input type="checkbox" checked={keepPeople} onChange={(e) => setKeepPeople(e.target.checked)} /> Keep recipients&apos; real names
          and emails
        </label>
        <button type="button" className="btn" onClick={() => void save()}>
          Save this as a pack
        </button>
        <p className="subtle">No secret is ever written; another machine loads the file with npm start -- --demo ./pack.json.</p>
      </div>
    </Card>
  );
}
