import fs from 'node:fs';
import path from 'node:path';
import { registerAreaParts } from './modules';
import { withEntityDoors } from './modules/sync/doors';

/** Rewrites docs/ARCHITECTURE.md's entity table from the registry (npm run gen:entity-doors). */
const file = path.resolve(import.meta.dirname, '../../../docs/ARCHITECTURE.md');
registerAreaParts();
fs.writeFileSync(file, withEntityDoors(fs.readFileSync(file, 'utf8')));
