import type { User } from '@pharmacy/contracts';
import { allows, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { sessionText, useCashSession } from '../cash/useCashSession';
import { ROLE_LABELS } from '../ui/format';
import { tillBridge } from './till-bridge';
import { printerText, syncText, usePrinterStatus, useSyncStatus } from './useHardwareStatus';
import { type Connection, useConnection } from './useConnection';

const CONNECTION_TEXT: Record<Connection, string> = {
  checking: 'Checking…',
  online: 'Connected',
  degraded: 'Database problem',
  offline: 'Server unreachable',
};

function Item({ label, value, tone, href }: { label: string; value: string; tone?: string; href?: string }) {
  const body = (
    <>
      <span className="status-label">{label}</span> <span className="status-value">{value}</span>
    </>
  );
  return (
    <div className={`status-item ${tone ?? ''}`}>
      {href ? (
        <Link href={href} aria-label={`${label}: ${value}`}>
          {body}
        </Link>
      ) : (
        body
      )}
    </div>
  );
}

/**
 * The strip at the bottom of every till screen: who, where, the cash session, the default printer's
 * status and replication to head office (online/offline, changes waiting to be pushed).
 */
export function StatusBar({ user }: { user: User }) {
  const connection = useConnection();
  const cash = useCashSession();
  const printer = usePrinterStatus();
  const sync = useSyncStatus();
  const bridge = tillBridge();
  const desktop = useQuery({
    queryKey: ['till-app-info'],
    queryFn: () => bridge?.appInfo() ?? null,
    enabled: !!bridge,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <footer className="status-bar">
      <Item label="Signed in" value={user.full_name} />
      <Item label="Role" value={ROLE_LABELS[user.role]} />
      <Item label="Branch" value={user.branch_name} />
      <Item
        label="Server"
        value={CONNECTION_TEXT[connection]}
        tone={connection === 'online' ? 'ok' : connection === 'checking' ? '' : 'bad'}
      />
      <Item
        label="Session"
        value={cash.isError ? 'Unknown' : sessionText(cash.data)}
        tone={cash.data?.status === 'open' ? 'ok' : cash.data?.status === 'on_break' ? 'bad' : ''}
      />
      <Item
        label="Printer"
        href={allows(BRANCH_MANAGERS, user.role) ? '~/back-office/printers' : undefined}
        value={printer.isError ? 'Unknown' : printerText(printer.data)}
        tone={
          printer.data
            ? printer.data.state === 'READY' || printer.data.state === 'CONNECTED'
              ? 'ok'
              : 'bad'
            : ''
        }
      />
      <Item
        label="Sync"
        href={allows(BRANCH_MANAGERS, user.role) ? '~/back-office/head-office' : undefined}
        value={sync.isError ? 'Unknown' : syncText(sync.data)}
        tone={
          sync.data?.configured ? (sync.data.online && sync.data.open_conflicts === 0 ? 'ok' : 'bad') : ''
        }
      />
      <Item
        label="Till"
        value={desktop.data ? `Desktop ${desktop.data.version}` : bridge ? 'Desktop' : 'Browser'}
      />
    </footer>
  );
}
