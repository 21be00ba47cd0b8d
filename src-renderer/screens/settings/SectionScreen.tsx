// A settings section (Settings, Integrations): a real page at its own path, listing
// what lies under it, each a link with one line about it. Its contents come from the
// route table, so a new page under a section shows up here by itself.
import { PageHeader } from '../../components/PageHeader.js';
import { Link } from '../../router.js';
import { useTitle } from '../../use-title.js';

export interface SectionItem {
  label: string;
  description?: string;
  to: string;
}

export function SectionScreen({ title, lede, items }: { title: string; lede?: string; items: SectionItem[] }) {
  useTitle(title);
  return (
    <>
      <PageHeader title={title}>{lede && <p className="page-lede">{lede}</p>}</PageHeader>
      <ul className="section-list" aria-label={`In ${title}`}>
        {items.map((item) => (
          <li key={item.to} className="section-item">
            <Link to={item.to} className="section-link">
              {item.label}
            </Link>
            {item.description && <p className="section-text">{item.description}</p>}
          </li>
        ))}
      </ul>
    </>
  );
}
