import fs from 'node:fs';
import path from 'node:path';
import { API_TYPES_FILE, apiTypesSource } from './api-types';

/** `npm run gen:api-types`: writes the UI's API types from the route declarations (see api-types.ts). */
const source = await apiTypesSource();
const before = fs.existsSync(API_TYPES_FILE) ? fs.readFileSync(API_TYPES_FILE, 'utf8') : '';
const where = path.relative(process.cwd(), API_TYPES_FILE);
if (before === source) console.log(`${where} is up to date`);
else {
  fs.writeFileSync(API_TYPES_FILE, source);
  console.log(`wrote ${where}`);
}
