import { allows, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { DevicesList } from '../devices/DevicesScreen';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { ConflictsPanel } from './ConflictsPanel';
import { ConnectForm } from './ConnectForm';
import { TillStatusPanel } from './TillStatusPanel';

/**
 * Back office → Head office. On a till: connect it (form), or its sync health, Sync now and disconnect; on
 * central: the registered tills (the Devices section's list). Both list the sync conflicts.
 */
export function HeadOfficeScreen() {
  const me = useUser();
  // Polled fast while the till loads head office's data, so the progress bar moves.
  const status = useQuery({
    queryKey: ['sync-status'],
    queryFn: () => api.sync.status(),
    refetchInterval: (q) => (q.state.data?.configured && !q.state.data.bootstrapped ? 500 : 5_000),
  });
  const s = status.data;
  return (
    <section aria-labelledby="head-office-title">
      <div className="screen-header">
        <h1 id="head-office-title">Head office</h1>
      </div>
      <ErrorNotice error={status.error} />
      {s?.mode === 'central' && (
        <section aria-labelledby="registered-tills-title">
          <h2 id="registered-tills-title">Registered tills</h2>
          <DevicesList />
        </section>
      )}
      {s?.mode === 'till' && (s.configured ? <TillStatusPanel status={s} /> : <ConnectForm />)}
      {s && allows(BRANCH_MANAGERS, me.role) && <ConflictsPanel />}
    </section>
  );
}
