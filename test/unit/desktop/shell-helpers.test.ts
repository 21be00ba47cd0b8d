// Small pure parts of the shell: which arguments reach the backend, the failure
// notification batching (with vitest's fake clock), and the application menu.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backendArgsFrom } from '../../../src-main/desktop/backend-args.js';
import { createFailureBatcher, describeFailures, type FailureNotice } from '../../../src-main/desktop/failure-notifier.js';
import { buildMenuTemplate } from '../../../src-main/desktop/menu-template.js';
import type { Change } from '@shared/api-types.js';

describe('backendArgsFrom', () => {
  it("keeps the backend's flags and drops Electron's and Chromium's arguments and links", () => {
    const argv = [
      '.',
      '--no-sandbox',
      '--port',
      '0',
      '--inspect=0',
      '--receiver-port=0',
      'countersign://documents?d=doc_a',
      '--data-dir',
      '/tmp/d',
    ];
    expect(backendArgsFrom(argv)).toEqual(['--port', '0', '--receiver-port=0', '--data-dir', '/tmp/d']);
  });
  it('leaves a flag without a value for loadConfig to report', () => {
    expect(backendArgsFrom(['--port'])).toEqual(['--port']);
  });
});

function failed(id: string, subscription = 'wh_1', document: string | null = 'doc_1'): Change {
  return { kind: 'delivery', company_id: 'co_1', id, subscription_id: subscription, status: 'failed', document_id: document };
}

describe('failure notifications', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows one notice per burst of final failures, and ignores everything else', () => {
    vi.useFakeTimers();
    const shown: FailureNotice[] = [];
    const batcher = createFailureBatcher((n) => shown.push(n), 1000);
    batcher.onChange({ kind: 'delivery', company_id: 'co_1', id: 'msg_0', subscription_id: 'wh_1', status: 'pending', document_id: null });
    batcher.onChange({ kind: 'document', company_id: 'co_1', id: 'doc_1' });
    vi.advanceTimersByTime(5000);
    expect(shown).toHaveLength(0);

    batcher.onChange(failed('msg_1'));
    batcher.onChange(failed('msg_2', 'wh_2'));
    batcher.onChange(failed('msg_3', 'wh_2'));
    vi.advanceTimersByTime(999);
    expect(shown).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([
      { title: '3 webhook deliveries failed for good', body: expect.stringContaining('2 subscriptions'), documentId: null },
    ]);

    batcher.onChange(failed('msg_4', 'wh_1', 'doc_9'));
    vi.advanceTimersByTime(1000);
    expect(shown[1]).toMatchObject({ title: 'A webhook delivery failed for good', documentId: 'doc_9' });
    expect(shown[1].body).toContain('msg_4');
  });

  it('shows nothing after dispose', () => {
    vi.useFakeTimers();
    const shown: FailureNotice[] = [];
    const batcher = createFailureBatcher((n) => shown.push(n), 1000);
    batcher.onChange(failed('msg_1'));
    batcher.dispose();
    vi.advanceTimersByTime(5000);
    expect(shown).toHaveLength(0);
  });

  it('describes a single failure without a document', () => {
    expect(describeFailures([failed('msg_1', 'wh_1', null) as Extract<Change, { kind: 'delivery' }>]).documentId).toBeNull();
  });
});

describe('buildMenuTemplate', () => {
  const actions = { openDataFolder: () => undefined, showConsoleHome: () => undefined };
  const roles = (t: ReturnType<typeof buildMenuTemplate>): string[] =>
    t.flatMap((item) => [item.role ?? '', ...(Array.isArray(item.submenu) ? item.submenu.map((s) => s.role ?? '') : [])]).filter(Boolean);

  it('has the usual roles (edit, zoom, full screen, window, quit)', () => {
    const r = roles(buildMenuTemplate({ ...actions, isMac: false, devTools: false }));
    for (const role of ['editMenu', 'windowMenu', 'reload', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'quit', 'about'])
      expect(r).toContain(role);
    expect(r).not.toContain('appMenu');
  });
  it('has the app menu on macOS, and DevTools only in development', () => {
    expect(roles(buildMenuTemplate({ ...actions, isMac: true, devTools: false }))).toContain('appMenu');
    expect(roles(buildMenuTemplate({ ...actions, isMac: false, devTools: false }))).not.toContain('toggleDevTools');
    expect(roles(buildMenuTemplate({ ...actions, isMac: false, devTools: true }))).toContain('toggleDevTools');
  });
});

describe('startupErrorMessage', () => {
  it('says what to do for a busy port, a locked data folder and a bad setting', async () => {
    const { startupErrorMessage } = await import('../../../src-main/desktop/startup-error.js');
    const busy = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4010'), { code: 'EADDRINUSE' });
    expect(startupErrorMessage(busy)).toMatch(/--port 0/);
    const { DataDirLockedError } = await import('../../../src-main/backend/store/data-dir-lock.js');
    expect(startupErrorMessage(new DataDirLockedError('locked by pid 12'))).toMatch(/already running/);
    const { ConfigError } = await import('../../../src-main/backend/config.js');
    expect(startupErrorMessage(new ConfigError('--port must be a whole number'))).toBe('A setting is wrong: --port must be a whole number');
    expect(startupErrorMessage('boom')).toBe('boom');
  });
});
