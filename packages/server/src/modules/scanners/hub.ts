import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import { classifyScan, type ScanClassification, SerialScanner } from '@pharmacy/hardware';
import type { ScannerState } from '@pharmacy/contracts/client';
import type { AppContext } from '../../app-context';

export interface ScannerConfig {
  path: string;
  baudRate: number;
}

export interface ScanEvent {
  code: string;
  scanner: string;
  at: string;
  classification: ScanClassification;
}

const REOPEN_MS = 3_000;

/** SCANNER_PORTS: "/dev/ttyACM0,/dev/ttyUSB1@19200" (path, optional @baud rate). */
export function parseScannerPorts(text: string | undefined): ScannerConfig[] {
  return (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((entry) => {
      const [path = '', baud] = entry.split('@');
      const baudRate = baud ? Number(baud) : 9600;
      if (!path || !Number.isInteger(baudRate) || baudRate <= 0)
        throw new Error(`SCANNER_PORTS: bad entry "${entry}"`);
      return { path, baudRate };
    });
}

/**
 * The till's serial barcode scanners: opened at start, reopened when unplugged, every code broadcast to the
 * till's screens (server-sent events). Keyboard-wedge scanners need none of this: they type into the UI.
 */
export class ScannerHub extends EventEmitter<{ scan: [ScanEvent] }> {
  private readonly scanners = new Map<string, { scanner: SerialScanner; state: ScannerState }>();
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly app: AppContext,
    configs: ScannerConfig[],
  ) {
    super();
    this.setMaxListeners(100);
    for (const config of configs) this.add(config);
  }

  private add(config: ScannerConfig): void {
    const { app } = this;
    const state: ScannerState = {
      path: config.path,
      baud_rate: config.baudRate,
      open: false,
      last_error: null,
      last_scan_at: null,
    };
    const scanner = new SerialScanner({
      path: config.path,
      baudRate: config.baudRate,
      allowGlobs: app.config.printerDeviceAllow,
    });
    scanner.on('scan', (code) => {
      state.last_scan_at = new Date().toISOString();
      this.emit('scan', {
        code,
        scanner: config.path,
        at: state.last_scan_at,
        classification: classifyScan(code),
      });
    });
    scanner.on('error', (error) => {
      state.last_error = error.message;
    });
    scanner.on('close', () => {
      state.open = false;
      if (this.scanners.get(config.path)?.scanner === scanner) this.reopenLater(config.path);
    });
    this.scanners.set(config.path, { scanner, state });
  }

  /**
   * Takes a new list of scanners without a restart: ports no longer listed are closed, new ones opened, a
   * changed baud rate reopens its port.
   */
  async configure(configs: ScannerConfig[]): Promise<void> {
    const wanted = new Map(configs.map((c) => [c.path, c]));
    for (const [path, entry] of [...this.scanners]) {
      if (wanted.get(path)?.baudRate === entry.state.baud_rate) {
        wanted.delete(path);
        continue;
      }
      this.scanners.delete(path);
      await entry.scanner.close().catch(() => undefined);
    }
    for (const config of wanted.values()) {
      this.add(config);
      await this.open(config.path);
    }
  }

  async start(): Promise<void> {
    await Promise.all([...this.scanners.keys()].map((path) => this.open(path)));
  }

  states(): ScannerState[] {
    return [...this.scanners.values()].map(({ state }) => ({ ...state }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all([...this.scanners.values()].map(({ scanner }) => scanner.close()));
  }

  private async open(path: string): Promise<void> {
    const entry = this.scanners.get(path);
    if (!entry || this.stopped) return;
    try {
      await entry.scanner.open();
      entry.state.open = true;
      entry.state.last_error = null;
    } catch (error) {
      entry.state.open = false;
      entry.state.last_error = error instanceof Error ? error.message : String(error);
      this.app.log.warn({ scanner: path, err: entry.state.last_error }, 'scanner: cannot open; retrying');
      this.reopenLater(path);
    }
  }

  private reopenLater(path: string): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.open(path);
    }, REOPEN_MS);
    timer.unref();
    this.timers.add(timer);
  }
}

const hubs = new WeakMap<AppContext, ScannerHub>();

/** SCANNER_PORTS set: the environment decides, and the Scanners screen only shows. */
export const scannersFromEnvironment = (app: AppContext): boolean => !!app.config.scannerPorts?.trim();

/** The scanners this till's database lists (set from the Scanners screen). */
export async function storedScanners(app: AppContext): Promise<ScannerConfig[]> {
  const { rows } = await sql<{
    value: string;
  }>`SELECT value FROM till_settings WHERE key = 'scanners'`.execute(app.db);
  if (!rows[0]) return [];
  const list = JSON.parse(rows[0].value) as Array<{ path: string; baud_rate: number }>;
  return list.map((s) => ({ path: s.path, baudRate: s.baud_rate }));
}

export async function storeScanners(app: AppContext, configs: ScannerConfig[]): Promise<void> {
  const value = JSON.stringify(configs.map((c) => ({ path: c.path, baud_rate: c.baudRate })));
  await sql`INSERT INTO till_settings (key, value, updated_at) VALUES ('scanners', ${value}, ${new Date().toISOString()})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`.execute(app.db);
}

/** Opens the configured serial scanners (SCANNER_PORTS, else the till's stored list); stopped by close(). */
export async function startScanners(app: AppContext): Promise<ScannerHub> {
  const configs = scannersFromEnvironment(app)
    ? parseScannerPorts(app.config.scannerPorts)
    : await storedScanners(app).catch((err: unknown) => {
        app.log.error({ err }, 'scanner: stored scanner settings unreadable');
        return [];
      });
  const hub = new ScannerHub(app, configs);
  hubs.set(app, hub);
  app.closers.push(() => hub.stop());
  await hub.start();
  return hub;
}

export const scannerHubOf = (app: AppContext): ScannerHub | undefined => hubs.get(app);
