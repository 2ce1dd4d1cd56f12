import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

export type Connection = 'checking' | 'online' | 'degraded' | 'offline';

/** Polls the local server's /health; the till keeps working offline from central, never without it. */
export function useConnection(): Connection {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: () => api.health(),
    refetchInterval: 10_000,
    refetchIntervalInBackground: true,
    retry: false,
  });
  if (health.isPending) return 'checking';
  if (health.isError) return 'offline';
  return health.data.status === 'ok' ? 'online' : 'degraded';
}
