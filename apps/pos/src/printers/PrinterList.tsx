import type { Printer, PrinterActionResult } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { FindPrintersDialog } from './FindPrintersDialog';
import { PrinterDialog, type PrinterPick } from './PrinterDialog';
import { isPrinterOk, printerStateText } from './printer-state';

type Editing =
  | { kind: 'add'; pick?: PrinterPick }
  | { kind: 'edit'; printer: Printer }
  | { kind: 'find' }
  | null;

/** Asked every 5 s while the screen is open: online, paper out, cover open, offline. */
function StatusCell({ printer }: { printer: Printer }) {
  const status = useQuery({
    queryKey: ['printers', 'status', printer.id],
    queryFn: () => api.printing.printerStatus(printer.id),
    refetchInterval: 5_000,
    enabled: printer.is_active,
  });
  if (!printer.is_active) return <span className="muted">Inactive</span>;
  const ok = isPrinterOk(status.data);
  return (
    <span className={`badge ${status.data ? (ok ? 'ok' : 'bad') : ''}`} title={status.data?.error?.message}>
      {status.isError ? 'Unknown' : printerStateText(status.data)}
    </span>
  );
}

function outcomeText(what: string, printer: Printer, r: PrinterActionResult): string {
  return r.outcome === 'printed'
    ? `${what} sent to ${printer.name} (${r.bytes_written} bytes).`
    : `${what} on ${printer.name} failed: ${r.error?.code ?? 'ERROR'}: ${r.error?.message ?? ''}`;
}

export function PrinterList() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const printers = useQuery({ queryKey: ['printers', 'list'], queryFn: () => api.printing.printers() });
  const action = useMutation({
    mutationFn: async ({ kind, printer }: { kind: 'test' | 'drawer'; printer: Printer }) => {
      const r =
        kind === 'test'
          ? await api.printing.testPrint(printer.id)
          : await api.printing.openDrawer(printer.id);
      return {
        ok: r.outcome === 'printed',
        text: outcomeText(kind === 'test' ? 'Test page' : 'Drawer kick', printer, r),
      };
    },
    onSettled: (_d, _e, v) =>
      queryClient.invalidateQueries({ queryKey: ['printers', 'status', v.printer.id] }),
  });
  const toggle = useMutation({
    mutationFn: (p: Printer) => api.printing.updatePrinter(p.id, { is_active: !p.is_active }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['printers'] });
      queryClient.invalidateQueries({ queryKey: ['printer-status'] });
    },
  });
  const items = printers.data?.items ?? [];
  return (
    <>
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => setEditing({ kind: 'add' })}>
          Add printer
        </button>
        <button type="button" onClick={() => setEditing({ kind: 'find' })}>
          Find printers
        </button>
      </div>
      <ErrorNotice error={printers.error ?? toggle.error ?? action.error} />
      {action.data && (
        <p role={action.data.ok ? 'status' : 'alert'} className={`notice ${action.data.ok ? 'ok' : 'error'}`}>
          {action.data.text}
        </p>
      )}
      <table aria-label="Printers">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Connection</th>
            <th scope="col">Paper</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.id}>
              <td>
                {p.name}
                {p.is_default && <span className="badge neutral">Default</span>}
                {p.open_drawer && <span className="badge neutral">Drawer</span>}
              </td>
              <td>
                <StatusCell printer={p} />
              </td>
              <td className="wrap-anywhere">
                {p.transport} <span className="muted">{p.address}</span>
              </td>
              <td>{p.paper_width_mm} mm</td>
              <td className="actions">
                <button
                  type="button"
                  aria-label={`Test print on ${p.name}`}
                  disabled={action.isPending}
                  onClick={() => action.mutate({ kind: 'test', printer: p })}
                >
                  Test print
                </button>
                {p.open_drawer && (
                  <button
                    type="button"
                    aria-label={`Open drawer of ${p.name}`}
                    disabled={action.isPending}
                    onClick={() => action.mutate({ kind: 'drawer', printer: p })}
                  >
                    Open drawer
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Edit ${p.name}`}
                  onClick={() => setEditing({ kind: 'edit', printer: p })}
                >
                  Edit
                </button>
                <button
                  type="button"
                  aria-label={`${p.is_active ? 'Deactivate' : 'Activate'} ${p.name}`}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate(p)}
                >
                  {p.is_active ? 'Deactivate' : 'Activate'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {printers.data && items.length === 0 && (
        <p>
          No printer yet. Add the receipt printer with Add printer, or pick an attached one with Find
          printers.
        </p>
      )}
      {editing?.kind === 'add' && <PrinterDialog pick={editing.pick} onClose={() => setEditing(null)} />}
      {editing?.kind === 'edit' && (
        <PrinterDialog printer={editing.printer} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === 'find' && (
        <FindPrintersDialog
          onClose={() => setEditing(null)}
          onPick={(pick) => setEditing({ kind: 'add', pick })}
        />
      )}
    </>
  );
}
