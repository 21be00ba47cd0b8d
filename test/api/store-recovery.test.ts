// Recovery from damaged store files (issue 9, finding 2 and the zombie lock of issue
// 12): a damaged journal line in the middle no longer silently drops every commit after
// it; the file is kept aside and the start-up report (GET /console/api/status) names
// what was lost. Real backends on loopback over real files.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crashCopy, makeDataDir, backendsPerTest, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';

const { start, running } = backendsPerTest();

async function makeDocs(t: TestBackend, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.api('POST', '/v2/test_helpers/documents', { title: `Doc ${i}`, recipients: [{ name: 'a', email: 'a@b.co' }] });
    ids.push(r.body.public_id);
  }
  return ids;
}

/** A crash copy of `t`'s data directory with its journal's lines passed through `edit`. */
async function crashWithJournal(t: TestBackend, edit: (lines: string[]) => string[]) {
  const copy = await crashCopy(t.dataDir);
  const journal = (await readdir(copy)).find((f) => /^journal-\d+\.jsonl$/.test(f))!;
  const lines = (await readFile(join(copy, journal), 'utf8')).split('\n').slice(0, -1);
  const damaged = edit(lines).join('\n') + '\n';
  await writeFile(join(copy, journal), damaged);
  return { copy, journal, damaged };
}

const statusWarnings = async (t: TestBackend): Promise<string> => (await t.consoleApi('GET', '/status')).body.warnings.join('\n');

describe('a damaged journal', () => {
  it('recovers every intact commit after a garbage line, keeps the file aside and reports it', async () => {
    const t = await start();
    const ids = await makeDocs(t, 20);
    // As the tester did: a garbage line in the middle of the journal after a kill -9.
    const { copy, journal, damaged } = await crashWithJournal(t, (lines) => {
      const mid = Math.floor(lines.length / 2);
      return [...lines.slice(0, mid), 'garbage \u0000 that is not a journal line', ...lines.slice(mid)];
    });
    const t2 = await start(copy);
    for (const id of ids) expect((await t2.api('GET', `/documents/${id}`)).status).toBe(200);
    const report = await statusWarnings(t2);
    expect(report).toMatch(new RegExp(`journal ${join(copy, journal).replace(/[/\\.]/g, '\\$&')} had 1 damaged line`));
    expect(report).toMatch(/not a journal line of a format this version knows/);
    const aside = (await readdir(copy)).filter((f) => f.startsWith(`${journal}.damaged-`));
    expect(aside).toHaveLength(1);
    expect(report).toContain(aside[0]);
    expect(await readFile(join(copy, aside[0]), 'utf8')).toBe(damaged);
    // Folded into a checkpoint at once: the next start has nothing to report, keeps the
    // copy aside, and still has every document.
    await t2.stop();
    const t3 = await start(copy);
    expect(t3.backend.warnings).toEqual([]);
    expect((await readdir(copy)).filter((f) => f.startsWith(`${journal}.damaged-`))).toEqual(aside);
    for (const id of ids) expect((await t3.api('GET', `/documents/${id}`)).status).toBe(200);
  });

  it('detects a changed byte by its checksum and names the record whose change is lost', async () => {
    const t = await start();
    const [a, b, c] = await makeDocs(t, 3);
    await t.api('PUT', `/documents/${b}`, { title: 'Renamed' });
    await t.api('PUT', `/documents/${c}`, { title: 'After it' });
    const { copy } = await crashWithJournal(t, (lines) =>
      lines.map((l) => (l.includes('"Renamed"') && l.includes('"documents"') ? l.replace('"Renamed"', '"Renamez"') : l)),
    );
    const t2 = await start(copy);
    // The damaged commit is not applied (neither its bytes nor the original): the
    // document keeps its state from before it; the commit after it is recovered.
    expect((await t2.api('GET', `/documents/${b}`)).body.title).toBe('Doc 1');
    expect((await t2.api('GET', `/documents/${c}`)).body.title).toBe('After it');
    expect((await t2.api('GET', `/documents/${a}`)).status).toBe(200);
    const report = await statusWarnings(t2);
    expect(report).toMatch(/checksum mismatch; it named [^.]*doc_/);
    expect(report).toContain(b);
    expect(report).toMatch(/the 1 intact commit after it were recovered/);
  });

  it.each([
    ['a line of another format', '{"op":"put","id":"doc_x"}'],
    ['an unknown collection', '[["widgets","w_1",{"id":"w_1"}]]'],
    ['ops that are not a list', '[1,2,3]'],
  ])('reports %s naming the file, and starts', async (_name, foreign) => {
    const t = await start();
    const ids = await makeDocs(t, 2);
    const { copy, journal } = await crashWithJournal(t, (lines) => [lines[0], foreign, ...lines.slice(1)]);
    const t2 = await start(copy);
    for (const id of ids) expect((await t2.api('GET', `/documents/${id}`)).status).toBe(200);
    expect(await statusWarnings(t2)).toContain(`journal ${join(copy, journal)} had 1 damaged line`);
  });

  it('still reads journals written before lines carried a checksum', async () => {
    const dir = await makeDataDir();
    const doc = {
      public_id: 'doc_v1line',
      company_id: 'co_old',
      title: 'From a v1 journal',
      status: 'DRAFT',
      recipients: [],
      metadata: {},
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    };
    await writeFile(join(dir, 'journal-0.jsonl'), JSON.stringify([['documents', doc.public_id, doc]]) + '\n');
    const t = await start(dir);
    expect(t.backend.warnings).toEqual([]);
    expect(t.backend.store.documents.get('doc_v1line')?.title).toBe('From a v1 journal');
  });
});

describe('a corrupt data.json', () => {
  it('is rebuilt from the previous checkpoint and the journals, not started empty', async () => {
    const t = await start();
    const first = await makeDocs(t, 3);
    await t.stop(); // checkpoint 1
    const t2 = await start(t.dataDir);
    const second = await makeDocs(t2, 3);
    await t2.stop(); // checkpoint 2: checkpoint 1 is kept as data.json.prev, with its journal
    const t3 = await start(t.dataDir);
    const third = await makeDocs(t3, 3); // only in the journal
    await t3.api('PUT', `/documents/${first[0]}`, { title: 'Renamed after the checkpoints' });
    const copy = await crashCopy(t3.dataDir);
    expect((await readdir(copy)).filter((f) => f.startsWith('data.json'))).toEqual(expect.arrayContaining(['data.json', 'data.json.prev']));
    const corrupt = '{"schema_version":1,"compan';
    await writeFile(join(copy, 'data.json'), corrupt);
    const t4 = await start(copy);
    for (const id of [...first, ...second, ...third]) expect((await t4.api('GET', `/documents/${id}`)).status).toBe(200);
    expect((await t4.api('GET', `/documents/${first[0]}`)).body.title).toBe('Renamed after the checkpoints');
    const report = await statusWarnings(t4);
    expect(report).toMatch(/rebuilt from the previous checkpoint .*data\.json\.prev and the journal/);
    const aside = (await readdir(copy)).find((f) => f.startsWith('data.json.corrupt-'))!;
    expect(await readFile(join(copy, aside), 'utf8')).toBe(corrupt);
    // Checkpointed at once: a clean start next time, everything still there.
    await t4.stop();
    const t5 = await start(copy);
    expect(t5.backend.warnings).toEqual([]);
    for (const id of [...first, ...second, ...third]) expect((await t5.api('GET', `/documents/${id}`)).status).toBe(200);
  });
});

describe('foreign files in the data directory', () => {
  it.each([
    ['data.json is a folder', 'data.json', 'dir', /data\.json is a folder, but the store file belongs there\. Move it out/],
    ['history is a file', 'history', 'file', /history is a file, but the folder for the delivery history belongs there/],
    [
      'a history segment is a folder',
      'history/seg-000001.jsonl',
      'dir',
      /seg-000001\.jsonl is a folder, but a delivery history segment belongs there/,
    ],
  ])('refuses to start when %s, naming the file and what to do', async (_name, rel, kind, message) => {
    const dir = await makeDataDir();
    if (rel.startsWith('history/')) await mkdir(join(dir, 'history'));
    if (kind === 'dir') await mkdir(join(dir, rel));
    else await writeFile(join(dir, rel), 'not a folder');
    await expect(startTestBackend({}, dir)).rejects.toThrow(message);
    // Refused cleanly: the lock is gone, so a start after the fix works.
    await rm(join(dir, rel), { recursive: true });
    await start(dir);
  });

  it('reports junk and truncation in a history segment instead of dropping entries silently', async () => {
    const t = await start();
    await makeDocs(t, 1);
    await t.stop();
    running.pop();
    const seg = join(t.dataDir, 'history', 'seg-000001.jsonl');
    await appendFile(seg, 'junk that is not a record\n');
    await writeFile(join(t.dataDir, 'history', 'seg-000002.jsonl'), '');
    const t2 = await start(t.dataDir);
    expect(await statusWarnings(t2)).toMatch(/delivery history file .*seg-000001\.jsonl is damaged: 1 unreadable line/);
  });
});

describe('the data-directory lock', () => {
  it('takes over a lock whose holder is a zombie (exited, not yet reaped)', async () => {
    // `sh` starts a child that exits at once, then becomes `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d) => resolve(String(d).trim()))));
      const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
      await waitUntil('the child to be a zombie', async () => state() === 'Z');
      expect(() => process.kill(pid, 0)).not.toThrow(); // it still "exists"
      const dir = await makeDataDir();
      await writeFile(join(dir, 'countersign.lock'), String(pid));
      const t = await start(dir);
      expect((await t.api('GET', '/v2/webhooks')).status).toBe(200);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
