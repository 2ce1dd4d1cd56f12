import type { Device } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';

/** On central: the registered tills, grouped by branch, with last-seen time and revoke/restore. */
export function DevicesPanel() {
  const queryClient = useQueryClient();
  const devices = useQuery({
    queryKey: ['sync-devices'],
    queryFn: () => api.devices.list({ page_size: 200 }),
  });
  const act = useMutation({
    mutationFn: ({ device, action }: { device: Device; action: 'revoke' | 'restore' }) =>
      action === 'revoke' ? api.devices.revoke(device.id) : api.devices.restore(device.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sync-devices'] }),
  });
  const byBranch = new Map<string, Device[]>();
  for (const d of devices.data?.items ?? []) {
    const key = d.branch_name ?? d.branch_id;
    byBranch.set(key, [...(byBranch.get(key) ?? []), d]);
  }
  return (
    <section aria-labelledby="devices-title">
      <h2 id="devices-title">Registered tills</h2>
      <ErrorNotice error={devices.error ?? act.error} />
      {devices.data && devices.data.items.length === 0 && <p>No till is registered yet.</p>}
      {[...byBranch].map(([branch, list]) => (
        <table key={branch} aria-label={`Tills of ${branch}`}>
          <caption>{branch}</caption>
          <thead>
            <tr>
              <th scope="col">Till</th>
              <th scope="col">Status</th>
              <th scope="col">Last seen</th>
              <th scope="col">Version</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <tr key={d.id}>
                <td>{d.name}</td>
                <td>{d.status === 'active' ? 'Active' : 'Revoked'}</td>
                <td>{formatDateTime(d.last_seen_at)}</td>
                <td>{d.app_version ?? '—'}</td>
                <td className="actions">
                  <button
                    type="button"
                    aria-label={`${d.status === 'active' ? 'Revoke' : 'Restore'} ${d.name}`}
                    disabled={act.isPending}
                    onClick={() =>
                      act.mutate({ device: d, action: d.status === 'active' ? 'revoke' : 'restore' })
                    }
                  >
                    {d.status === 'active' ? 'Revoke' : 'Restore'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </section>
  );
}
