import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';

const NOTICES_KEY = ['notices'];

/**
 * Head office's recalls and announcements on Sell (issue 29), each until the signed-in person acknowledges
 * it. A recalled batch is never sold; the banner tells the counter to take it off the shelf.
 */
export function NoticesBanner() {
  const queryClient = useQueryClient();
  const notices = useQuery({
    queryKey: NOTICES_KEY,
    queryFn: () => api.notices.list(),
    refetchInterval: 60_000,
    refetchOnMount: 'always',
  });
  const acknowledge = useMutation({
    mutationFn: (n: { kind: 'announcement' | 'recall'; id: string }) => api.notices.acknowledge(n),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTICES_KEY }),
  });
  const items = notices.data?.items ?? [];
  if (items.length === 0 && !acknowledge.error) return null;
  return (
    <div className="notices">
      <ErrorNotice error={acknowledge.error} />
      {items.map((n) => (
        <section
          key={`${n.kind}:${n.id}`}
          className={n.kind === 'recall' ? 'notice error' : 'notice info'}
          aria-label={n.kind === 'recall' ? 'Recall' : 'Announcement'}
        >
          <p>
            <strong>{n.title}</strong> {n.body}
          </p>
          <button
            type="button"
            className="notice-ack"
            aria-label={`Acknowledge: ${n.title}`}
            disabled={acknowledge.isPending}
            onClick={() => acknowledge.mutate({ kind: n.kind, id: n.id })}
          >
            Acknowledge
          </button>
        </section>
      ))}
    </div>
  );
}
