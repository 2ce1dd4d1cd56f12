import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .tsx file of the till's UI. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return e.name.endsWith('.tsx') ? [file] : [];
  });
}

describe('dialog focus', () => {
  it("29: no control asks for React's autoFocus: a modal dialog overrides it, data-autofocus is what Dialog honours", () => {
    const root = path.resolve(import.meta.dirname, '../apps/pos/src');
    const using = sources(root).filter((f) => /\bautoFocus\b/.test(fs.readFileSync(f, 'utf8')));
    expect(using.map((f) => path.relative(root, f))).toEqual([]);
  });
});
