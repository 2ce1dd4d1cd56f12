import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from './config';

describe('configuration from the environment', () => {
  it('has the start-up contract defaults', () => {
    const config = configFromEnv({});
    expect(config).toMatchObject({ port: 8000, host: '127.0.0.1', mode: 'till', logLevel: 'info' });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.seed).toEqual({
      adminEmail: 'admin@pharmacy.local',
      adminPassword: 'Admin#12345',
      pharmacistEmail: 'pharmacist@pharmacy.local',
      pharmacistPassword: 'Pharm#12345',
    });
  });

  it('reads overrides', () => {
    const config = configFromEnv({
      PORT: '9001',
      PHARMACY_MODE: 'central',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      PHARMACY_ADMIN_EMAIL: 'boss@x.org',
    });
    expect(config).toMatchObject({
      port: 9001,
      mode: 'central',
      corsOrigins: ['https://a.example', 'https://b.example'],
    });
    expect(config.seed.adminEmail).toBe('boss@x.org');
  });

  it('fails fast naming the bad variable', () => {
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => configFromEnv({ PHARMACY_MODE: 'cloud' })).toThrow(/PHARMACY_MODE/);
    expect(() => configFromEnv({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32/);
    expect(() => configFromEnv({ PHARMACY_ADMIN_PASSWORD: 'x' })).toThrow(/PHARMACY_ADMIN_PASSWORD/);
  });

  it('DATABASE_REPLICA_URL: a postgres:// URL, only with a PostgreSQL DATABASE_URL on central', () => {
    const primary = 'postgres://u:p@db:5432/pharmacy';
    const replica = 'postgres://u:p@db-replica:5432/pharmacy';
    const central = { PHARMACY_MODE: 'central', DATABASE_URL: primary };
    expect(configFromEnv({ ...central, DATABASE_REPLICA_URL: replica }).databaseReplicaUrl).toBe(replica);
    expect(configFromEnv(central).databaseReplicaUrl).toBeUndefined();
    expect(() => configFromEnv({ PHARMACY_MODE: 'central', DATABASE_REPLICA_URL: replica })).toThrow(
      /DATABASE_REPLICA_URL: a read replica is a copy of central's PostgreSQL: set DATABASE_URL/,
    );
    expect(() => configFromEnv({ DATABASE_REPLICA_URL: replica })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => configFromEnv({ ...central, DATABASE_REPLICA_URL: 'mysql://db-replica/x' })).toThrow(
      /DATABASE_REPLICA_URL must be a postgres:\/\/ URL/,
    );
  });

  it('C1: PRINTER_DEVICE_ALLOW is empty by default and refuses globs that reach descriptors, streams or disks', () => {
    expect(configFromEnv({}).printerDeviceAllow).toEqual([]);
    expect(configFromEnv({ PRINTER_DEVICE_ALLOW: '/dev/pts/*, /dev/ttyAMA?' }).printerDeviceAllow).toEqual([
      '/dev/pts/*',
      '/dev/ttyAMA?',
    ]);
    for (const glob of ['/dev/*', '/dev/fd/*', '/dev/std*', '/dev/shm/*', '/tmp/*', '/dev/s*', '/dev/../x']) {
      expect(() => configFromEnv({ PRINTER_DEVICE_ALLOW: glob })).toThrow(/PRINTER_DEVICE_ALLOW/);
    }
  });

  it('C1: SCANNER_PORTS must name serial device nodes (or ones PRINTER_DEVICE_ALLOW allows)', () => {
    expect(configFromEnv({ SCANNER_PORTS: '/dev/ttyACM0,/dev/ttyUSB1@19200' }).scannerPorts).toBeDefined();
    for (const ports of [
      '/dev/fd/27',
      '/dev/stderr',
      '/tmp/scanner',
      '/dev/ttyACM0,/dev/null@9600',
      '/dev/pts/4',
    ]) {
      expect(() => configFromEnv({ SCANNER_PORTS: ports })).toThrow(/SCANNER_PORTS/);
    }
    const pty = configFromEnv({ SCANNER_PORTS: '/dev/pts/4', PRINTER_DEVICE_ALLOW: '/dev/pts/*' });
    expect(pty.scannerPorts).toBe('/dev/pts/4');
  });

  it("reads the print worker's settings from the PRINT_* variables, each unset one at its default", () => {
    expect(configFromEnv({}).printing).toEqual({
      ok: true,
      options: {
        worker: true,
        maxAttempts: 8,
        retryBaseMs: 2_000,
        retryMaxMs: 300_000,
        pollMs: 2_000,
        transportTimeoutMs: 5_000,
        statusTimeoutMs: 1_500,
      },
    });
    const set = configFromEnv({
      PRINT_WORKER: 'off',
      PRINT_MAX_ATTEMPTS: '3',
      PRINT_RETRY_BASE_MS: '150',
      PRINT_RETRY_MAX_MS: '100',
      PRINT_POLL_MS: '',
      PRINT_TIMEOUT_MS: '1000',
      PRINT_STATUS_TIMEOUT_MS: '400',
    });
    expect(set.printing).toEqual({
      ok: true,
      // The cap is never below the base; an empty variable is an unset one.
      options: {
        worker: false,
        maxAttempts: 3,
        retryBaseMs: 150,
        retryMaxMs: 150,
        pollMs: 2_000,
        transportTimeoutMs: 1_000,
        statusTimeoutMs: 400,
      },
    });
  });

  it('an invalid PRINT_* value is named in printing.problem and does not fail the configuration', () => {
    const config = configFromEnv({ PRINT_TIMEOUT_MS: '10', PRINT_WORKER: 'maybe', PORT: '9002' });
    expect(config.port).toBe(9002);
    expect(config.printing.ok).toBe(false);
    const problem = config.printing.ok ? '' : config.printing.problem;
    expect(problem).toMatch(/^Invalid printing configuration:/);
    expect(problem).toMatch(/PRINT_TIMEOUT_MS: /);
    expect(problem).toMatch(/PRINT_WORKER: /);
  });
});
