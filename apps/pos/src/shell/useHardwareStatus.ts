import type { SyncStatus } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** The branch's default printer and what it answers (READY, PAPER_OUT, OFFLINE…); null when none is set up. */
export function usePrinterStatus() {
  return useQuery({
    queryKey: ['printer-status'],
    queryFn: async () => {
      const printers = await api.printing.printers();
      const printer = printers.items.find((p) => p.is_default && p.is_active);
      if (!printer) return null;
      const report = await api.printing.printerStatus(printer.id);
      return { name: printer.name, state: report.state, reachable: report.reachable };
    },
    refetchInterval: 30_000,
    staleTime: 20_000,
  });
}

/** Replication to central: online/offline and the changes still waiting to be pushed. */
export function useSyncStatus() {
  return useQuery<SyncStatus>({
    queryKey: ['sync-status'],
    queryFn: () => api.sync.status(),
    refetchInterval: 10_000,
    staleTime: 5_000,
  });
}

export function printerText(status: { name: string; state: string } | null | undefined): string {
  if (status === undefined) return 'Checking…';
  if (status === null) return 'Not set up';
  const state = status.state.replaceAll('_', ' ').toLowerCase();
  return `${status.name}: ${state}`;
}

export function syncText(status: SyncStatus | undefined): string {
  if (!status) return 'Checking…';
  if (!status.configured) return status.mode === 'central' ? 'Head office' : 'Not set up';
  const pending = `${status.pending} pending`;
  if (!status.bootstrapped) return `Loading from head office · ${pending}`;
  const conflicts = status.open_conflicts > 0 ? ` · ${status.open_conflicts} to review` : '';
  return `${status.online ? 'Online' : 'Offline'} · ${pending}${conflicts}`;
}
