import path from 'node:path';
import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65535);

const ConfigSchema = z.object({
  port: Port.default(8000),
  host: z.string().min(1).default('127.0.0.1'),
  dataDir: z.string().min(1).default('./data'),
  mode: z.enum(['till', 'central']).default('till'),
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
});

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Which environment variable feeds which config field; used for parsing and for clear error messages. */
const ENV_NAMES: Record<string, string> = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'DATA_DIR',
  mode: 'PHARMACY_MODE',
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
  });
}
