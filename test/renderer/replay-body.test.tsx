// The replay form's body editor (issue 13 item 8): a multi-line monospace editor with a
// "Format JSON" button, an error while the text is not valid JSON, and a Send that does
// not go out with invalid JSON (focus goes back to the editor instead). No request is
// made in these cases, so no backend is needed; sending is covered by test/e2e/inspector.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../src-renderer/api/query-client.js';
import { ReplayForm } from '../../src-renderer/screens/inspector/ReplayForm.js';

afterEach(() => cleanup());

function renderForm(bodyText: string | null) {
  const inbox = { id: 'inb_a', name: 'Orders', local_url: 'http://127.0.0.1:1/in/inb_a' } as never;
  render(
    <QueryClientProvider client={createQueryClient({ retry: false })}>
      <ReplayForm captureId="cap_1" bodyText={bodyText} inboxes={[inbox]} fromInbox="inb_a" onClose={() => undefined} />
    </QueryClientProvider>,
  );
}

describe('Replay body editor', () => {
  it('formats JSON, says when it is not valid, and will not send it', async () => {
    const user = userEvent.setup();
    renderForm('{"type":"document.sent","data":{"id":"doc_1"}}');
    await user.click(screen.getByLabelText(/Edited and re-signed/));
    const body = screen.getByRole('textbox', { name: 'Body' }) as HTMLTextAreaElement;
    expect(body.tagName).toBe('TEXTAREA');
    expect(body.classList.contains('code-editor')).toBe(true);
    expect(body.rows).toBeGreaterThanOrEqual(8);

    await user.click(screen.getByRole('button', { name: 'Format JSON' }));
    expect(body.value).toBe('{\n  "type": "document.sent",\n  "data": {\n    "id": "doc_1"\n  }\n}');
    expect(document.activeElement).toBe(body);

    await user.type(body, ',');
    expect(body.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/^Not valid JSON: /)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Format JSON' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.queryByRole('button', { name: 'Sending…' })).toBeNull();
    expect(document.activeElement).toBe(body);

    await user.type(body, '{Backspace}');
    expect(screen.queryByText(/^Not valid JSON: /)).toBeNull();
    expect(body.getAttribute('aria-invalid')).toBeNull();
  });

  it('leaves a body that was not JSON as plain text: no Format button, no JSON error', async () => {
    const user = userEvent.setup();
    renderForm('a=1&b=2');
    await user.click(screen.getByLabelText(/Edited and re-signed/));
    expect(screen.queryByRole('button', { name: 'Format JSON' })).toBeNull();
    expect(screen.queryByText(/Not valid JSON/)).toBeNull();
  });
});
