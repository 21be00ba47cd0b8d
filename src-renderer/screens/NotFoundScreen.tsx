import { EmptyState } from '../components/States.js';
import { PageHeader } from '../components/PageHeader.js';
import { Link } from '../router.js';
import { linkTo } from '../paths.js';
import { useTitle } from '../use-title.js';

export function NotFoundScreen({ path }: { path: string }) {
  useTitle('Not found');
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title={`Nothing lives at ${path}.`}>
        <Link to={linkTo.documents()}>Go to documents</Link>
      </EmptyState>
    </>
  );
}
