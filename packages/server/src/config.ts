import path from 'node:path';
import { deviceGlobProblem, devicePathProblem } from '@pharmacy/hardware';
import { z } from 'zod';
import { PrintingInput, printingConfig, printingFromEnv } from './printing-config';

const Port = z.coerce.number().int().min(0).max(65535);

/** Comma-separated globs of device paths an operator allows besides the printer and serial device names. */
const DeviceAllow = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean),
  )
  .superRefine((globs, ctx) => {
    for (const glob of globs) {
      const problem = deviceGlobProblem(glob);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });

const ConfigFields = z.object({
  port: Port.default(8000),
  host: z.string().min(1).default('127.0.0.1'),
  dataDir: z.string().min(1).default('./data'),
  mode: z.enum(['till', 'central']).default('till'),
  /**
   * Central's PostgreSQL (postgres://user:password@host:5432/db); unset, the database is DATA_DIR/pharmacy.db.
   * A till refuses it: tills are SQLite by design (one file, offline).
   */
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
    .optional(),
  databasePoolSize: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * A read replica of central's PostgreSQL (a streaming standby): reports, the dashboard and sync pulls and
   * snapshots read there (db/read-replica.ts). Only together with DATABASE_URL.
   */
  databaseReplicaUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'DATABASE_REPLICA_URL must be a postgres:// URL' })
    .optional(),
  jwtSecret: z.string().min(32, { message: 'JWT_SECRET must be at least 32 characters' }).optional(),
  jwtTtlSeconds: z.coerce.number().int().min(60).max(86_400).default(3600),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  corsOrigins: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  bodyLimit: z
    .string()
    .regex(/^\d+(kb|mb)$/i, { message: 'BODY_LIMIT must look like 1mb or 512kb' })
    .default('1mb'),
  trustProxy: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  seed: z.object({
    adminEmail: z.string().email().default('admin@pharmacy.local'),
    adminPassword: z.string().min(8).default('Admin#12345'),
    pharmacistEmail: z.string().email().default('pharmacist@pharmacy.local'),
    pharmacistPassword: z.string().min(8).default('Pharm#12345'),
  }),
  staticDir: z.string().optional(),
  /** Serial barcode scanners of this till: "/dev/ttyACM0,/dev/ttyUSB1@19200". */
  scannerPorts: z.string().optional(),
  /**
   * Device paths a printer (device, serial) or scanner may use besides the built-in printer and serial device
   * names, e.g. "/dev/pts/*" for a virtual printer on a pty. Deny by default; set only by the operator.
   */
  printerDeviceAllow: DeviceAllow,
  /** Load the small demo catalogue into an empty catalogue at start (`npm start` sets it). */
  demoCatalogue: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Medicine photos and branding: local disk under DATA_DIR/images, an S3-compatible bucket, or off (500). */
  imageStorage: z.enum(['auto', 'local', 's3', 'off']).default('auto'),
  s3: z
    .object({
      endpoint: z.string().url().optional(),
      bucket: z.string().min(3).optional(),
      region: z.string().min(1).default('us-east-1'),
      accessKeyId: z.string().optional(),
      secretAccessKey: z.string().optional(),
      forcePathStyle: z
        .enum(['true', 'false'])
        .default('false')
        .transform((v) => v === 'true'),
    })
    .prefault({}),
  // Sync (modules/sync): a till replicates when a central URL and a device credential are configured.
  centralUrl: z
    .string()
    .url({ message: 'CENTRAL_URL must be a URL such as http://head-office:8000' })
    .optional(),
  syncDeviceFile: z.string().optional(),
  syncDeviceId: z.string().optional(),
  syncDeviceToken: z.string().optional(),
  syncIntervalMs: z.coerce.number().int().min(50).max(3_600_000).default(15_000),
  syncBackoffMaxMs: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
  syncTombstoneRetentionDays: z.coerce.number().int().min(1).max(3650).default(180),
  // Central on PostgreSQL folds the report summaries' deltas into the summaries this often (reports/summaries.ts).
  reportFoldIntervalMs: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /**
   * The print worker's tuning (PRINT_WORKER, PRINT_MAX_ATTEMPTS, PRINT_RETRY_BASE_MS..., printing-config.ts):
   * checked here, but an invalid value does not stop the server, it only keeps the print worker from starting
   * (config.printing.ok false, with the problem naming the variable).
   */
  printing: PrintingInput.prefault({}).transform((given) => printingConfig(given)),
});

/** Each scanner port must be a serial device node, or match the operator's PRINTER_DEVICE_ALLOW. */
const ConfigSchema = ConfigFields.superRefine((config, ctx) => {
  if (config.databaseUrl && config.mode !== 'central')
    ctx.addIssue({
      code: 'custom',
      path: ['databaseUrl'],
      message:
        'a till keeps its data in SQLite (DATA_DIR/pharmacy.db) so it sells offline; PostgreSQL is for central: set PHARMACY_MODE=central or unset DATABASE_URL',
    });
  if (config.databaseReplicaUrl && !config.databaseUrl)
    ctx.addIssue({
      code: 'custom',
      path: ['databaseReplicaUrl'],
      message:
        "a read replica is a copy of central's PostgreSQL: set DATABASE_URL to the primary (PHARMACY_MODE=central), or unset DATABASE_REPLICA_URL",
    });
  for (const entry of (config.scannerPorts ?? '').split(',')) {
    const port = entry.trim().split('@')[0] ?? '';
    const problem = port && devicePathProblem('serial', port, config.printerDeviceAllow);
    if (problem) ctx.addIssue({ code: 'custom', path: ['scannerPorts'], message: `${port} ${problem}` });
  }
});

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Which environment variable feeds which config field; used for parsing and for clear error messages. */
const ENV_NAMES: Record<string, string> = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'DATA_DIR',
  mode: 'PHARMACY_MODE',
  databaseUrl: 'DATABASE_URL',
  databasePoolSize: 'DATABASE_POOL_SIZE',
  databaseReplicaUrl: 'DATABASE_REPLICA_URL',
  jwtSecret: 'JWT_SECRET',
  jwtTtlSeconds: 'JWT_TTL_SECONDS',
  logLevel: 'LOG_LEVEL',
  corsOrigins: 'CORS_ORIGINS',
  bodyLimit: 'BODY_LIMIT',
  trustProxy: 'TRUST_PROXY',
  'seed.adminEmail': 'PHARMACY_ADMIN_EMAIL',
  'seed.adminPassword': 'PHARMACY_ADMIN_PASSWORD',
  'seed.pharmacistEmail': 'PHARMACY_PHARMACIST_EMAIL',
  'seed.pharmacistPassword': 'PHARMACY_PHARMACIST_PASSWORD',
  staticDir: 'STATIC_DIR',
  demoCatalogue: 'PHARMACY_DEMO_CATALOGUE',
  scannerPorts: 'SCANNER_PORTS',
  printerDeviceAllow: 'PRINTER_DEVICE_ALLOW',
  imageStorage: 'IMAGE_STORAGE',
  's3.endpoint': 'S3_ENDPOINT',
  's3.bucket': 'S3_BUCKET',
  's3.region': 'S3_REGION',
  's3.accessKeyId': 'S3_ACCESS_KEY_ID',
  's3.secretAccessKey': 'S3_SECRET_ACCESS_KEY',
  's3.forcePathStyle': 'S3_FORCE_PATH_STYLE',
  centralUrl: 'CENTRAL_URL',
  syncDeviceFile: 'SYNC_DEVICE_FILE',
  syncDeviceId: 'SYNC_DEVICE_ID',
  syncDeviceToken: 'SYNC_DEVICE_TOKEN',
  syncIntervalMs: 'SYNC_INTERVAL_MS',
  syncBackoffMaxMs: 'SYNC_BACKOFF_MAX_MS',
  syncTombstoneRetentionDays: 'SYNC_TOMBSTONE_RETENTION_DAYS',
  reportFoldIntervalMs: 'REPORT_FOLD_INTERVAL_MS',
};

export class ConfigError extends Error {}

export function parseConfig(input: ConfigInput): Config {
  const parsed = ConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = i.path.join('.');
      return `${ENV_NAMES[key] ?? key}: ${i.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.dataDir) };
}

/** Reads the configuration from environment variables, failing fast with a message naming the bad variable. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const pick = (name: string) => (env[name] === '' ? undefined : env[name]);
  return parseConfig({
    port: pick('PORT'),
    host: pick('HOST'),
    dataDir: pick('DATA_DIR'),
    mode: pick('PHARMACY_MODE') as ConfigInput['mode'],
    databaseUrl: pick('DATABASE_URL'),
    databasePoolSize: pick('DATABASE_POOL_SIZE'),
    databaseReplicaUrl: pick('DATABASE_REPLICA_URL'),
    jwtSecret: pick('JWT_SECRET'),
    jwtTtlSeconds: pick('JWT_TTL_SECONDS'),
    logLevel: pick('LOG_LEVEL') as ConfigInput['logLevel'],
    corsOrigins: pick('CORS_ORIGINS'),
    bodyLimit: pick('BODY_LIMIT'),
    trustProxy: pick('TRUST_PROXY') as ConfigInput['trustProxy'],
    seed: {
      adminEmail: pick('PHARMACY_ADMIN_EMAIL'),
      adminPassword: pick('PHARMACY_ADMIN_PASSWORD'),
      pharmacistEmail: pick('PHARMACY_PHARMACIST_EMAIL'),
      pharmacistPassword: pick('PHARMACY_PHARMACIST_PASSWORD'),
    },
    staticDir: pick('STATIC_DIR'),
    demoCatalogue: pick('PHARMACY_DEMO_CATALOGUE') as ConfigInput['demoCatalogue'],
    scannerPorts: pick('SCANNER_PORTS'),
    printerDeviceAllow: pick('PRINTER_DEVICE_ALLOW'),
    imageStorage: pick('IMAGE_STORAGE') as ConfigInput['imageStorage'],
    s3: {
      endpoint: pick('S3_ENDPOINT'),
      bucket: pick('S3_BUCKET'),
      region: pick('S3_REGION'),
      accessKeyId: pick('S3_ACCESS_KEY_ID'),
      secretAccessKey: pick('S3_SECRET_ACCESS_KEY'),
      forcePathStyle: pick('S3_FORCE_PATH_STYLE') as 'true' | 'false' | undefined,
    },
    centralUrl: pick('CENTRAL_URL'),
    syncDeviceFile: pick('SYNC_DEVICE_FILE'),
    syncDeviceId: pick('SYNC_DEVICE_ID'),
    syncDeviceToken: pick('SYNC_DEVICE_TOKEN'),
    syncIntervalMs: pick('SYNC_INTERVAL_MS'),
    syncBackoffMaxMs: pick('SYNC_BACKOFF_MAX_MS'),
    syncTombstoneRetentionDays: pick('SYNC_TOMBSTONE_RETENTION_DAYS'),
    reportFoldIntervalMs: pick('REPORT_FOLD_INTERVAL_MS'),
    printing: printingFromEnv(env),
  });
}
