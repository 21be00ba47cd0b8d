// Request or response headers as they were, in order and case (text only).
export function HeadersTable({ headers, label }: { headers: [string, string][]; label: string }) {
  if (headers.length === 0) return <p className="subtle">No headers.</p>;
  return (
    <table className="kv-table">
      <caption className="visually-hidden">{label}</caption>
      <tbody>
        {headers.map(([name, value], i) => (
          <tr key={i}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono break">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const headerPairs = (h: Record<string, string>): [string, string][] => Object.entries(h);
