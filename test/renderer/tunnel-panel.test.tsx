// The tunnel panel (issue 13 item 8): an ngrok error said in words with ngrok's own text
// in small print, and an authtoken that can be cleared. The backend is real (its tunnel
// holds a token that was never started: "off"); clearing goes through the real route.
// ngrok's cloud cannot be reached here, so for the error case the tunnel's state is set
// by hand on the real backend (the one fake, as in test/api/tunnel-follow.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureClient } from '../../src-renderer/api/client.js';
import { tunnelErrorWords } from '../../src-renderer/screens/receiver/tunnel-error.js';
import { CONSOLE_TOKEN, renderConsole } from './render-console.js';
import { loadNodeHelper } from './node-helper.js';

interface Tb {
  urls: { api_url: string };
  backend: { tunnel: { state: () => unknown } };
  destroy: () => Promise<void>;
}
let tb: Tb;
let realState: () => unknown;

beforeAll(async () => {
  const { startTestBackend } = await loadNodeHelper<{ startTestBackend: (o: object) => Promise<Tb> }>('backend.ts');
  tb = await startTestBackend({ consoleToken: CONSOLE_TOKEN, ngrokAuthtoken: '2bad_token_from_a_typo' });
  configureClient({ base: tb.urls.api_url, consoleToken: CONSOLE_TOKEN });
  realState = tb.backend.tunnel.state;
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  tb.backend.tunnel.state = realState;
});
afterAll(async () => {
  await tb.destroy();
});

const NGROK_107 = 'failed to start tunnel: The authtoken you specified is properly formed, but it is invalid.\r\n\r\nERR_NGROK_107\r\n';

describe('tunnel error words', () => {
  it('names the fix first, for the errors a person meets', () => {
    expect(tunnelErrorWords(NGROK_107)).toEqual({ words: expect.stringMatching(/^ngrok refused the authtoken/), badToken: true });
    expect(tunnelErrorWords('failed to dial ngrok server with address "connect.ngrok-agent.com:443"').words).toMatch(
      /^Could not reach ngrok/,
    );
    expect(tunnelErrorWords('ngrok did not answer within 20 s').words).toMatch(/did not answer in time/);
    expect(tunnelErrorWords('ERR_NGROK_108 Your account is limited to 1 simultaneous ngrok agent session').badToken).toBe(false);
    expect(tunnelErrorWords('something new').words).toMatch(/could not connect/);
  });
});

describe('Tunnel panel', () => {
  it("says an error in words, keeps ngrok's text in small print, and clears the bad authtoken", async () => {
    let forced = true;
    tb.backend.tunnel.state = () => (forced ? { status: 'error', message: NGROK_107 } : realState());
    const user = userEvent.setup();
    const { container } = renderConsole('/app/receiver');

    expect(await screen.findByText(/^ngrok refused the authtoken/)).toBeTruthy();
    const small = container.querySelector('.tunnel-ngrok-text small');
    expect(small?.textContent).toContain('ERR_NGROK_107');
    const clear = screen.getByRole('button', { name: 'Clear authtoken' });
    expect(clear.className).toContain('btn-danger');

    forced = false;
    await user.click(clear);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Clear authtoken' })).toBeNull());
    expect(realState()).toMatchObject({ status: 'offline' });
    expect(screen.getByText(/Give an ngrok authtoken/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('ngrok authtoken')));
    expect((screen.getByRole('button', { name: 'Start tunnel' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
