// The console: its session first (the console token, or the browser's session cookie,
// buys this run's admin key, which service calls read from the session query's data),
// then the live stream and the screens. Refused: the sign-in page.
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
import { SignInScreen } from './screens/sign-in/SignInScreen.js';

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

const refused = (err: unknown) => err instanceof ApiRequestError && (err.status === 401 || err.status === 403);

export function App() {
  const session = useQuery({ ...sessionQuery(), retry: (count, err) => count < 1 && !refused(err) });
  useLiveStream(session.isSuccess);

  if (session.isPending) return <Loading what="the console" />;
  if (session.isError && refused(session.error)) return <SignInScreen stale={consoleToken() !== null} />;
  if (session.isError) {
    return (
      <Gate title="The console could not start">
        <ErrorNotice error={session.error} />
      </Gate>
    );
  }
  return <Screens company={session.data.company_name} />;
}
