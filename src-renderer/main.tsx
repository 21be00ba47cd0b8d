// Entry of the console page. A console token in the URL fragment is taken before
// anything renders (and removed from the address bar) and signs the browser in; without
// one, the session cookie of an earlier sign-in speaks for the page.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { captureConsoleToken } from './api/token.js';
import { configureClient, signIn } from './api/client.js';
import { createQueryClient } from './api/query-client.js';
import { App } from './App.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/screens.css';
import './styles/inspector.css';
import './styles/check.css';
import './styles/scenarios.css';
import './styles/clock.css';
import './styles/connection.css';

const token = captureConsoleToken();
configureClient({ consoleToken: token });

/** A token link signs the browser in first (best effort: this page still has the token if cookies are refused). */
async function start(): Promise<void> {
  if (token) await signIn(token).catch(() => undefined);
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
