import type { ReceiptTemplate } from '@pharmacy/contracts';

export type Width = 58 | 80;

/** The template a printer of this width prints with: its width's default, else the both-widths default. */
export function templateInUse(items: readonly ReceiptTemplate[], width: Width): ReceiptTemplate | null {
  return (
    items.find((t) => t.is_default && t.paper_width_mm === width) ??
    items.find((t) => t.is_default && t.paper_width_mm === null) ??
    null
  );
}

/**
 * What saving does: an existing template is updated, unless it is a both-widths one being made this width's
 * own, which saves a new template for this width and leaves the other width printing with the old one.
 */
export function saveTarget(
  template: ReceiptTemplate | null,
  onlyThisWidth: boolean,
): { update: string } | { create: true } {
  if (template && (template.paper_width_mm !== null || !onlyThisWidth)) return { update: template.id };
  return { create: true };
}
