export type { AppContext } from './app-context';
export { type Config, ConfigError, configFromEnv, parseConfig } from './config';
export { DatabaseTooNewError } from './db/migrate';
export { isDatabaseUnavailable, UnsupportedPostgresError } from './db/postgres';
export { createServer, type PharmacyServer } from './server';
export { VERSION } from './version';
export { discoverDevices } from './modules/printing/transport';
export { printingFromEnv } from './printing-config';
