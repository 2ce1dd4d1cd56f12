import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** Every branch, for pickers and names; a pharmacy chain has tens, not thousands. */
export function useBranches() {
  return useQuery({
    queryKey: ['branches', 'all'],
    queryFn: () => api.branches.list({ page_size: 200 }),
    staleTime: 60_000,
  });
}
