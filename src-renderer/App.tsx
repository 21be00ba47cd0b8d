// The console: its session first (the console token buys this run's admin key, which
// service calls read from the session query's data), then the live stream and the screens.
import { useQuery } from '@tanstack/react-query';
import { sessionQuery } from './api/session.js';
import { useLiveStream } from './api/live.js';
import { consoleToken } from './api/client.js';
import { ApiRequestError } from './api/errors.js';
import { Layout } from './components/Layout.js';
import { ErrorNotice } from './components/ErrorNotice.js';
import { Loading } from './components/States.js';
import { CrumbsContext } from './crumbs.js';
import { useLocation } from './router.js';
import { resolveRoute } from './routes.js';

function Gate({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="gate" id="main">
      <div className="gate-card">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** The frame and the screen of the current location, with its breadcrumbs. */
function Screens({ company }: { company: string }) {
  const { route, screen, crumbs } = resolveRoute(useLocation());
  return (
    <Layout company={company} current={route}>
      <CrumbsContext value={crumbs}>{screen}</CrumbsContext>
    </Layout>
  );
}

export function App() {
  const hasToken = consoleToken() !== null;
  const session = useQuery({ ...sessionQuery(), enabled: hasToken });
  useLiveStream(session.isSuccess);

  if (!hasToken) {
    return (
      <Gate title="Open the console from its link">
        <p>
          This page needs the console link printed when Countersign starts (the <code>console_url</code> of the ready line, or the desktop
          window). It carries this run's token, which keeps other programs and web pages out.
        </p>
      </Gate>
    );
  }
  if (session.isPending) return <Loading what="the console" />;
  if (session.isError) {
    const expired = session.error instanceof ApiRequestError && (session.error.status === 401 || session.error.status === 403);
    return (
      <Gate title={expired ? 'This console link is no longer valid' : 'The console could not start'}>
        {expired ? (
          <p>Countersign was restarted or the link is from another run. Open the newest console link printed at start.</p>
        ) : (
          <ErrorNotice error={session.error} />
        )}
      </Gate>
    );
  }
  return <Screens company={session.data.company_name} />;
}
