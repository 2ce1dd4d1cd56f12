import type { ClassifiedScan } from '@pharmacy/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import {
  DEFAULT_SCAN_GAP_MS,
  MAX_SCAN_GAP_MS,
  MIN_SCAN_GAP_MS,
  setScanGapMs,
  useScanGapMs,
} from '../sell/scanner-timing';
import { useSerialScanner } from '../sell/useSerialScanner';
import { useWedgeScanner } from '../sell/useWedgeScanner';
import type { ScanTiming } from '../sell/wedge-detector';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, NumberField, SelectField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { plainWords } from '@pharmacy/contracts/plain-words';

const BAUDS = ['9600', '19200', '38400', '57600', '115200', '4800', '2400', '1200'];

interface Seen extends ClassifiedScan {
  source: 'serial' | 'keyboard';
  at: string;
  timing?: ScanTiming;
}

const timingText = (code: string, t: ScanTiming) =>
  `${code.length} keys in ${Math.round(t.durationMs)} ms, slowest gap ${Math.round(t.slowestGapMs)} ms`;

/** The keyboard scanner's timing: the slowest gap between two keys of one scan, stored for this till. */
function ScanGapForm() {
  const stored = useScanGapMs();
  const [gap, setGap] = useState(stored);
  const [saved, setSaved] = useState(false);
  const valid = Number.isInteger(gap) && gap >= MIN_SCAN_GAP_MS && gap <= MAX_SCAN_GAP_MS;
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    setScanGapMs(gap);
    setSaved(true);
  };
  return (
    <form onSubmit={save} noValidate aria-label="Keyboard scanner timing">
      <NumberField
        label="Slowest gap between a scan's keys (ms)"
        value={gap}
        onChange={(v) => {
          setGap(v);
          setSaved(false);
        }}
        min={MIN_SCAN_GAP_MS}
        max={MAX_SCAN_GAP_MS}
        step={1}
        hint={`Keys closer together than this, ending in Enter, are a scan. Default ${DEFAULT_SCAN_GAP_MS} ms; raise it for a slow scanner: each scan below shows how fast its keys came.`}
        error={valid ? undefined : `Enter a whole number from ${MIN_SCAN_GAP_MS} to ${MAX_SCAN_GAP_MS}.`}
      />
      <button type="submit" disabled={!valid}>
        Save timing
      </button>
      {saved && <output className="notice ok">Saved: scans are up to {stored} ms between keys.</output>}
    </form>
  );
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
  const classify = async (code: string, source: Seen['source'], timing?: ScanTiming) => {
    const classification = await api.scanners.classify({ code });
    const at = new Date().toISOString();
    setSeen((prev) => [{ code, classification, source, at, timing }, ...prev].slice(0, 10));
  };
  useSerialScanner((code) => void classify(code, 'serial'));
  useWedgeScanner((code, _startedAt, timing) => void classify(code, 'keyboard', timing));
  return (
    <section aria-labelledby="test-scan-title" className="card">
      <h2 id="test-scan-title">Test scan</h2>
      <p className="muted">
        Scan a pack with any scanner: it shows here with what the till reads from it and, for a keyboard
        scanner, how fast its keys came.
      </p>
      <ScanGapForm />
      {seen.length === 0 && <p>No scan yet.</p>}
      <ul className="scan-log" aria-label="Last scans">
        {seen.map((s) => (
          <li key={`${s.at}-${s.code}`}>
            <strong>{s.code}</strong>{' '}
            <span className="muted">
              {s.source === 'serial' ? 'serial scanner' : 'keyboard scanner'} · {formatDateTime(s.at)}
            </span>
            {s.timing && <p className="scan-timing">{timingText(s.code, s.timing)}</p>}
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
