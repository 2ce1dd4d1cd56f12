import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import type { PrinterPick } from './PrinterDialog';

const hex = (n: number) => n.toString(16).padStart(4, '0');

/**
 * What the till can see (GET /printing/devices): USB printers by vendor/product and name, serial ports.
 * Picking one opens "Add printer" with its connection and address filled in.
 */
export function FindPrintersDialog({
  onPick,
  onClose,
}: {
  onPick: (pick: PrinterPick) => void;
  onClose: () => void;
}) {
  const devices = useQuery({ queryKey: ['printer-devices'], queryFn: () => api.printing.devices() });
  const usb = devices.data?.usb ?? [];
  const serial = devices.data?.serial ?? [];
  return (
    <Dialog title="Find printers" onClose={onClose}>
      <ErrorNotice error={devices.error} />
      {devices.isPending && <p role="status">Looking for printers…</p>}
      {devices.data && (
        <>
          <h3>USB printers</h3>
          {usb.length === 0 && <p className="muted">No USB printer is attached.</p>}
          <ul className="pick-list" aria-label="USB printers">
            {usb.map((d) => {
              const name = [d.manufacturer, d.product].filter(Boolean).join(' ') || 'USB printer';
              return (
                <li key={d.address}>
                  <button
                    type="button"
                    onClick={() =>
                      onPick({ transport: 'usb', address: `${hex(d.vendor_id)}:${hex(d.product_id)}`, name })
                    }
                  >
                    {name} <span className="muted">{`${hex(d.vendor_id)}:${hex(d.product_id)}`}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          <h3>Serial ports and device nodes</h3>
          {serial.length === 0 && <p className="muted">No serial port found.</p>}
          <ul className="pick-list" aria-label="Serial ports">
            {serial.map((d) => (
              <li key={d.path}>
                <button
                  type="button"
                  onClick={() => onPick({ transport: 'serial', address: d.path, name: d.manufacturer })}
                >
                  {d.path} {d.manufacturer && <span className="muted">{d.manufacturer}</span>}
                </button>
              </li>
            ))}
          </ul>
          {devices.data.warnings.map((w) => (
            <p key={w} className="notice">
              {w}
            </p>
          ))}
          <p className="muted">
            Network printers are not listed: add them with Add printer, by IP address and port.
          </p>
        </>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={() => devices.refetch()} disabled={devices.isFetching}>
          Search again
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
