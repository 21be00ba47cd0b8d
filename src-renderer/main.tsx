// Entry of the console page. The console token is taken from the URL fragment before
// anything renders (and removed from the address bar).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { captureConsoleToken } from './api/token.js';
import { configureClient } from './api/client.js';
import { createQueryClient } from './api/query-client.js';
import { App } from './App.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/screens.css';
import './styles/inspector.css';

configureClient({ consoleToken: captureConsoleToken() });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
