import type { ClassifiedScan } from '@pharmacy/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useSerialScanner } from '../sell/useSerialScanner';
import { useWedgeScanner } from '../sell/useWedgeScanner';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { plainWords } from '@pharmacy/contracts/plain-words';

const BAUDS = ['9600', '19200', '38400', '57600', '115200', '4800', '2400', '1200'];

interface Seen extends ClassifiedScan {
  source: 'serial' | 'keyboard';
  at: string;
}

function ScanFields({ scan }: { scan: Seen }) {
  const c = scan.classification;
  if (c.kind === 'gs1')
    return (
      <dl className="facts">
        <dt>GTIN</dt>
        <dd>{c.gtin ?? '—'}</dd>
        <dt>Batch</dt>
        <dd>{c.batch ?? '—'}</dd>
        <dt>Expiry</dt>
        <dd>{c.expiry ?? '—'}</dd>
        <dt>Serial</dt>
        <dd>{c.serial ?? '—'}</dd>
      </dl>
    );
  if (c.kind === 'unknown') return <p className="muted">Not a GS1 or retail code: {c.reason}</p>;
  return (
    <p>
      {c.kind.toUpperCase()} · GTIN {c.gtin}
    </p>
  );
}

/** The last scans, serial and keyboard-wedge, with the server's parse of each. */
function TestScanPanel() {
  const [seen, setSeen] = useState<Seen[]>([]);
  const classify = async (code: string, source: Seen['source']) => {
    const classification = await api.scanners.classify({ code });
    setSeen((prev) => [{ code, classification, source, at: new Date().toISOString() }, ...prev].slice(0, 10));
  };
  useSerialScanner((code) => void classify(code, 'serial'));
  useWedgeScanner((code) => void classify(code, 'keyboard'));
  return (
    <section aria-labelledby="test-scan-title" className="card">
      <h2 id="test-scan-title">Test scan</h2>
      <p className="muted">Scan a pack with any scanner: it shows here with what the till reads from it.</p>
      {seen.length === 0 && <p>No scan yet.</p>}
      <ul className="scan-log" aria-label="Last scans">
        {seen.map((s) => (
          <li key={`${s.at}-${s.code}`}>
            <strong>{s.code}</strong>{' '}
            <span className="muted">
              {s.source === 'serial' ? 'serial scanner' : 'keyboard scanner'} · {formatDateTime(s.at)}
            </span>
            <ScanFields scan={s} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Back office → Scanners: this till's serial scanners (stored in its database), Find scanners, Test scan. */
export function ScannersScreen() {
  const queryClient = useQueryClient();
  const [port, setPort] = useState('');
  const [baud, setBaud] = useState('9600');
  const [finding, setFinding] = useState(false);
  const overview = useQuery({
    queryKey: ['scanners'],
    queryFn: () => api.scanners.list(),
    refetchInterval: 5_000,
  });
  const current = (overview.data?.scanners ?? []).map((s) => ({ path: s.path, baud_rate: s.baud_rate }));
  const save = useMutation({
    mutationFn: (list: Array<{ path: string; baud_rate: number }>) => api.scanners.configure(list),
    onSuccess: () => {
      setPort('');
      queryClient.invalidateQueries({ queryKey: ['scanners'] });
    },
  });
  const fromEnv = overview.data?.configured_by === 'environment';
  const add = (e: FormEvent) => {
    e.preventDefault();
    save.mutate([
      ...current.filter((s) => s.path !== port.trim()),
      { path: port.trim(), baud_rate: Number(baud) },
    ]);
  };
  return (
    <section aria-labelledby="scanners-title">
      <div className="screen-header">
        <h1 id="scanners-title">Scanners</h1>
      </div>
      <ErrorNotice error={overview.error} />
      {fromEnv && (
        <p className="notice info">Serial scanners are set by SCANNER_PORTS in this till's environment.</p>
      )}
      <table aria-label="Serial scanners">
        <thead>
          <tr>
            <th scope="col">Port</th>
            <th scope="col">Baud</th>
            <th scope="col">Status</th>
            <th scope="col">Last scan</th>
            {!fromEnv && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {overview.data?.scanners.map((s) => (
            <tr key={s.path}>
              <td className="wrap-anywhere">{s.path}</td>
              <td>{s.baud_rate}</td>
              <td>{s.open ? 'Open' : `Not open${s.last_error ? `: ${plainWords(s.last_error)}` : ''}`}</td>
              <td>{formatDateTime(s.last_scan_at)}</td>
              {!fromEnv && (
                <td className="actions">
                  <button
                    type="button"
                    aria-label={`Remove ${s.path}`}
                    disabled={save.isPending}
                    onClick={() => save.mutate(current.filter((c) => c.path !== s.path))}
                  >
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {overview.data && overview.data.scanners.length === 0 && (
        <p>No serial scanner. Keyboard (USB HID) scanners need no set-up: they type into the till.</p>
      )}
      {!fromEnv && (
        <form onSubmit={add} noValidate aria-label="Add a serial scanner" className="card">
          <h2>Add a serial scanner</h2>
          <ErrorNotice error={save.error} />
          <div className="form-row">
            <TextField
              label="Port"
              placeholder="/dev/ttyACM0 or COM3"
              value={port}
              onChange={setPort}
              error={fieldError(save.error, `scanners.${current.length}.path`)}
            />
            <SelectField
              label="Baud rate"
              value={baud}
              onChange={setBaud}
              options={BAUDS.map((b) => ({ value: b, label: b }))}
            />
          </div>
          <div className="toolbar">
            <button type="button" onClick={() => setFinding((f) => !f)} aria-expanded={finding}>
              Find scanners
            </button>
            <button type="submit" className="primary" disabled={!port.trim() || save.isPending}>
              Save scanner
            </button>
          </div>
          {finding && (
            <div>
              {overview.data?.warning && <p className="notice">{overview.data.warning}</p>}
              {overview.data?.ports.length === 0 && <p>No serial port found.</p>}
              <ul className="pick-list" aria-label="Serial ports found">
                {overview.data?.ports.map((p) => (
                  <li key={p.path}>
                    <button type="button" onClick={() => setPort(p.path)}>
                      {p.path} {p.manufacturer && <span className="muted">{p.manufacturer}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </form>
      )}
      <TestScanPanel />
    </section>
  );
}
