import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api } from '../api';

/** The dashboard's warning: a till whose books differed from head office's on a recent day. */
export function BooksWarning() {
  const warnings = useQuery({
    queryKey: ['books', 'warnings'],
    queryFn: () => api.books.warnings(),
    refetchInterval: 60_000,
    refetchOnMount: 'always',
  });
  const items = warnings.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <div className="notice error" role="alert">
      <strong>Books differ from head office's:</strong>{' '}
      {items
        .slice(0, 5)
        .map((w) => `${w.branch_name} on ${w.day} (${w.device_name ?? 'a till'})`)
        .join('; ')}
      {items.length > 5 && ` and ${items.length - 5} more`}.{' '}
      <Link href="~/back-office/books">Open Books</Link>
    </div>
  );
}
