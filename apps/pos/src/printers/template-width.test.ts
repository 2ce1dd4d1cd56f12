import type { ReceiptTemplate } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { saveTarget, templateInUse } from './template-width';

const t = (id: string, paper_width_mm: 58 | 80 | null, is_default = true) =>
  ({ id, paper_width_mm, is_default }) as ReceiptTemplate;

describe('templates per paper width in the editor', () => {
  it('opens the width’s own default, else the both-widths default', () => {
    const both = t('both', null);
    const small = t('small', 58);
    expect(templateInUse([both, small], 58)).toBe(small);
    expect(templateInUse([both, small], 80)).toBe(both);
    expect(templateInUse([t('off', 80, false)], 80)).toBeNull();
  });

  it('updates a template in place unless a both-widths one becomes one width’s own', () => {
    expect(saveTarget(t('small', 58), true)).toEqual({ update: 'small' });
    expect(saveTarget(t('small', 58), false)).toEqual({ update: 'small' });
    expect(saveTarget(t('both', null), false)).toEqual({ update: 'both' });
    expect(saveTarget(t('both', null), true)).toEqual({ create: true });
    expect(saveTarget(null, true)).toEqual({ create: true });
  });
});
