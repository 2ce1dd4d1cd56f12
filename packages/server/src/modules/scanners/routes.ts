import { BaudRate, ClassifyScanRequest, ScanClassification } from '@pharmacy/contracts';
import { BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import { classifyScan, devicePathProblem, listSerialPorts } from '@pharmacy/hardware';
import { z } from 'zod';
import { Conflict, Invalid } from '../../lib/errors';
import type { ApiRouter } from '../../http/route';
import { actorOf, writeAudit } from '../audit/service';
import { scannerHubOf, scannersFromEnvironment, storeScanners } from './hub';

const ScannerSettings = z.object({
  scanners: z
    .array(
      z.object({
        path: z
          .string({ message: 'must be a string' })
          .trim()
          .min(1, { message: 'must not be empty' })
          .max(200),
        baud_rate: BaudRate.default(9600),
      }),
    )
    .max(8, { message: 'at most 8 scanners' }),
});

const ScannerState = z.object({
  path: z.string(),
  baud_rate: z.number().int(),
  open: z.boolean(),
  last_error: z.string().nullable(),
  last_scan_at: z.string().nullable(),
});

const KEEP_ALIVE_MS = 25_000;

export function scannerRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/scanners',
    tag: 'Printing',
    summary: "The till's serial scanners and the serial ports it can see",
    description:
      'Serial scanners are set from the Scanners screen (PUT /scanners, stored in this till\'s database) or, overriding that, with SCANNER_PORTS ("/dev/ttyACM0,/dev/ttyUSB1@19200"; configured_by says which), and reopened every few seconds when unplugged. Each port must be a serial device node (/dev/ttyUSBN, /dev/ttyACMN, /dev/ttySN, /dev/serial/by-id/..., /dev/cu.*, COMn) or match PRINTER_DEVICE_ALLOW, and opens only as a character device (last_error says why otherwise). Keyboard-wedge scanners need no configuration: they type into the till UI. Port discovery never fails: without udev it answers an empty list and a warning.',
    roles: 'any',
    responses: {
      200: {
        description: 'Configured scanners and discovered ports',
        schema: z.object({
          scanners: z.array(ScannerState),
          configured_by: z.enum(['environment', 'till']),
          ports: z.array(z.object({ path: z.string() }).loose()),
          warning: z.string().optional(),
        }),
      },
    },
    handler: async ({ app }) => {
      const discovered = await listSerialPorts();
      return {
        scanners: scannerHubOf(app)?.states() ?? [],
        configured_by: scannersFromEnvironment(app) ? ('environment' as const) : ('till' as const),
        ports: discovered.devices,
        ...(discovered.warning && { warning: discovered.warning }),
      };
    },
  });

  r.route({
    method: 'post',
    path: '/scanners/classify',
    tag: 'Printing',
    summary: 'Read a code a keyboard-wedge scanner typed: GS1 (GTIN, batch, expiry) or a retail barcode',
    description:
      "The same classification serial scans carry (packages/hardware's GS1 parser, so the UI has no parser of its own): kind gs1 with gtin, batch, expiry (AI 17, YYYY-MM-DD) and serial; ean13, upca or ean8 with code and gtin; unknown with the reason (a bad check digit, a malformed element string). The GS separator may be sent as the character U+001D. Never fails on what a scanner sends: a code that is no barcode is kind unknown (200). Any signed-in user.",
    roles: 'any',
    body: ClassifyScanRequest,
    responses: { 200: { description: 'The classification', schema: ScanClassification } },
    handler: ({ body }) => {
      const c = classifyScan(body.code);
      if (c.kind === 'gs1') {
        const { symbology: _s, elements: _e, ais: _a, ...fields } = c;
        return fields;
      }
      return c;
    },
  });

  r.route({
    method: 'put',
    path: '/scanners',
    tag: 'Printing',
    summary: "Set this till's serial scanners",
    description:
      "Admin and branch managers, for the Scanners screen. The till's serial scanners (port and baud rate, at most 8), stored in this till's own database (till_settings, never replicated), taking effect at once: ports no longer listed are closed, new ones opened. Each path must be a serial device node (the rules of SCANNER_PORTS and serial printers; a pty only under PRINTER_DEVICE_ALLOW): 400 naming scanners.N.path otherwise. 409 CONFIGURED_BY_ENVIRONMENT when SCANNER_PORTS is set (the environment overrides). Audited.",
    roles: BRANCH_MANAGERS,
    body: ScannerSettings,
    responses: {
      200: { description: 'The scanners now', schema: z.object({ scanners: z.array(ScannerState) }) },
      409: { description: 'SCANNER_PORTS decides' },
    },
    handler: async ({ app, user, body, requestId }) => {
      if (scannersFromEnvironment(app))
        throw new Conflict(
          "Serial scanners are set by SCANNER_PORTS in this till's environment; remove it to set them here.",
          'CONFIGURED_BY_ENVIRONMENT',
        );
      const errors = body.scanners.flatMap((s, i) => {
        const problem = devicePathProblem('serial', s.path, app.config.printerDeviceAllow);
        return problem ? [{ path: `scanners.${i}.path`, message: `${s.path} ${problem}` }] : [];
      });
      if (new Set(body.scanners.map((s) => s.path)).size !== body.scanners.length)
        errors.push({ path: 'scanners', message: 'lists a port twice' });
      if (errors.length > 0) throw new Invalid(errors.map((e) => e.message).join('; '), errors);
      const configs = body.scanners.map((s) => ({ path: s.path, baudRate: s.baud_rate }));
      await storeScanners(app, configs);
      await scannerHubOf(app)?.configure(configs);
      await writeAudit(app.db, actorOf(user, requestId), {
        action: 'scanners.update',
        entity: 'till_settings',
        entityId: 'scanners',
        branchId: user.branchId,
        after: body.scanners,
      });
      return { scanners: scannerHubOf(app)?.states() ?? [] };
    },
  });

  r.route({
    method: 'get',
    path: '/scanners/events',
    tag: 'Printing',
    summary: 'Scans from the serial scanners, as server-sent events',
    description:
      'text/event-stream: one `scan` event per code, data {code, scanner, at, classification} where classification is the GS1/EAN parse (gtin, batch, expiry for a GS1 DataMatrix). A comment line every 25 s keeps proxies from closing the stream; the server ends it when it stops (reconnect). Send the bearer token in the Authorization header (read the stream with fetch).',
    roles: 'any',
    responses: { 200: { description: 'Event stream', contentType: 'text/event-stream', schema: z.string() } },
    handler: ({ app, req, res }) => {
      res.status(200).set({
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      res.write(': scanner events\n\n');
      const hub = scannerHubOf(app);
      const onScan = (event: unknown) => res.write(`event: scan\ndata: ${JSON.stringify(event)}\n\n`);
      hub?.on('scan', onScan);
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      // The stream never ends by itself: a closing server ends it (the screen reconnects to the next start).
      const end = () => res.end();
      app.closing.addEventListener('abort', end, { once: true });
      if (app.closing.aborted) end();
      return new Promise<void>((resolve) => {
        req.on('close', () => {
          clearInterval(keepAlive);
          hub?.off('scan', onScan);
          app.closing.removeEventListener('abort', end);
          resolve();
        });
      });
    },
  });
}
