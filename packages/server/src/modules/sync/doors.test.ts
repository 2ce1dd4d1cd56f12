import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerAreaParts } from '../index';
import { withEntityDoors } from './doors';

describe('docs/ARCHITECTURE.md, the owner and doors of every entity', () => {
  it('28.1: the table of every entity’s owner and the doors that write it matches the registry', () => {
    registerAreaParts();
    const file = path.resolve(import.meta.dirname, '../../../../../docs/ARCHITECTURE.md');
    const doc = fs.readFileSync(file, 'utf8');
    expect(doc, 'run npm run gen:entity-doors').toBe(withEntityDoors(doc));
  });
});
