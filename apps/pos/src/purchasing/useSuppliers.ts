import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** Active suppliers for pickers (a pharmacy deals with tens of them; the first 200 by name). */
export function useActiveSuppliers() {
  return useQuery({
    queryKey: ['suppliers', 'active-all'],
    queryFn: () => api.suppliers.list({ page_size: 200, is_active: 'true' }),
    staleTime: 60_000,
  });
}
