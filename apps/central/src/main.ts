import { configFromEnv } from '@pharmacy/server';
import { exitOnStartFailure, runServer } from './run';

/** Headless entry: `npm run server` (till mode) and `npm run central` (PHARMACY_MODE=central). */
runServer(configFromEnv()).catch(exitOnStartFailure);
