// Documents on a remote connection: the service has no list route (the list is the
// built-in service's console's own), so documents are opened by id or by link.
import { useConnection } from '../../api/connection.js';
import { Card } from '../../components/Card.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useTitle } from '../../use-title.js';
import { OpenDocumentForm } from './OpenDocumentForm.js';

export function RemoteDocumentsScreen() {
  useTitle('Documents');
  const c = useConnection();
  return (
    <>
      <PageHeader title="Documents">
        <p className="page-lede">
          The service has no list of documents, so on {c.name} a document is opened by its id or its link. Making documents and playing them
          through signing (test helpers) exist only on the built-in service.
        </p>
      </PageHeader>
      <Card title="Open a document">
        <OpenDocumentForm />
      </Card>
    </>
  );
}
