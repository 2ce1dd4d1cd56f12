import { BranchFilter } from '../branch/BranchFilter';
import type { Device } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { DataTable, Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField } from '../ui/fields';
import { useOrgDateTime } from '../ui/org-time';

const PAGE_SIZE = 50;

/** Back office → Devices (central). */
export function DevicesScreen() {
  return (
    <section aria-labelledby="devices-title">
      <div className="screen-header">
        <h1 id="devices-title">Devices</h1>
      </div>
      <DevicesList />
    </section>
  );
}

/**
 * The tills registered with head office, when each was last heard from, and revoke/restore: the Devices
 * section's page, and the Head office screen's on central. An admin filters by branch.
 */
export function DevicesList() {
  const me = useUser();
  const [branchId, setBranchId] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const query = {
    branch_id: branchId || undefined,
    status: (status || undefined) as Device['status'] | undefined,
    page,
    page_size: PAGE_SIZE,
  };
  const list = useQuery({
    queryKey: ['devices', query],
    queryFn: () => api.devices.list(query),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (d: Device) => (d.status === 'active' ? api.devices.revoke(d.id) : api.devices.restore(d.id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['devices'] }),
  });
  const when = useOrgDateTime();
  const orgWide = me.role === 'admin';
  return (
    <>
      <search className="filters">
        {orgWide && (
          <BranchFilter
            value={branchId}
            onChange={(v) => {
              setBranchId(v);
              setPage(1);
            }}
          />
        )}
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={[
            { value: '', label: 'Any status' },
            { value: 'active', label: 'Active' },
            { value: 'revoked', label: 'Revoked' },
          ]}
        />
      </search>
      <ErrorNotice error={list.error ?? change.error} />
      <DataTable
        label="Registered tills"
        rows={list.data?.items}
        rowKey={(d) => d.id}
        empty="No tills are registered."
        rowClassName={(d) => (d.status === 'revoked' ? 'muted-row' : undefined)}
        columns={[
          { key: 'name', header: 'Till', cell: (d) => <strong>{d.name}</strong> },
          { key: 'branch', header: 'Branch', cell: (d) => d.branch_name ?? '—' },
          {
            key: 'status',
            header: 'Status',
            cell: (d) => (d.status === 'active' ? 'Active' : `Revoked ${when(d.revoked_at)}`),
          },
          {
            key: 'seen',
            header: 'Last seen',
            cell: (d) => (d.last_seen_at ? when(d.last_seen_at) : 'Never'),
          },
          {
            key: 'push',
            header: 'Last push',
            cell: (d) => (d.last_push_at ? when(d.last_push_at) : 'Never'),
          },
          { key: 'revision', header: 'Pulled to', cell: (d) => d.last_pull_revision ?? '—', align: 'end' },
          { key: 'version', header: 'App version', cell: (d) => d.app_version ?? 'unknown' },
          {
            key: 'actions',
            header: 'Actions',
            cell: (d) => (
              <button
                type="button"
                aria-label={`${d.status === 'active' ? 'Revoke' : 'Restore'} ${d.name}`}
                disabled={change.isPending}
                onClick={() => change.mutate(d)}
              >
                {d.status === 'active' ? 'Revoke' : 'Restore'}
              </button>
            ),
          },
        ]}
      />
      <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total} noun="tills" onPage={setPage} />
    </>
  );
}
