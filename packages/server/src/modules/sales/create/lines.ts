import { type CreateSaleRequest, PHARMACIST_ROLES, type Role, vatRateOf } from '@pharmacy/contracts';
import type { Db } from '../../../db/connection';
import { scaledRate } from '@pharmacy/contracts/pricing';
import type { AuthUser } from '../../../http/auth';
import { Conflict, Forbidden, Invalid, NotFound } from '../../../lib/errors';
import { toMinor } from '../../../lib/money';
import type { SaleApprovalNeeds } from '../../approvals/covers';
import { willCallMedicinesOfSale } from '../../prescriptions/will-call-sale';

/** What a sale line needs of its medicine (the prepared read of createSale). */
export interface SaleMedicine {
  id: string;
  name: string;
  is_active: number;
  vat_category: string;
  selling_price: number;
  max_public_price: number | null;
  is_controlled: number;
  requires_prescription: number;
}

export interface LineCheck<M extends SaleMedicine> {
  body: CreateSaleRequest;
  user: AuthUser;
  meds: Map<string, M>;
  taxPolicy: { vat_rates: Record<string, number> };
  exp: number;
  threshold: number;
  /** A base-currency amount in the sale's currency. */
  inSale: (baseMinor: number) => number;
  fmt: (minor: number) => string;
  /** Filled with what the lines need a manager's approval for. */
  approvalNeeds: SaleApprovalNeeds;
  /** A will-call pickup's medicines: dispensed by a pharmacist when prepared, so covered (issue 27.1). */
  willCallMedicines: ReadonlySet<string>;
}

/**
 * The one rule for prescription-only and controlled medicines at sale time, whoever sells (REST and the till's
 * Sell screen alike): a controlled medicine is sold by a pharmacist (or admin) against a prescription; a
 * prescription-only one needs a prescription (`prescription_id`, an existing one or one just recorded) or, by a
 * pharmacist or admin, an emergency supply with its reason. Whether the prescription covers the line is checked
 * when it is dispensed (create/write.ts).
 */
export function assertPrescriptionCover(
  m: Pick<SaleMedicine, 'name' | 'is_controlled' | 'requires_prescription'>,
  body: Pick<CreateSaleRequest, 'prescription_id' | 'emergency_supply'>,
  user: Pick<AuthUser, 'role'>,
): void {
  const pharmacist = PHARMACIST_ROLES.includes(user.role);
  if (m.is_controlled) {
    if (!pharmacist)
      throw new Forbidden(
        `${m.name} is a controlled medicine: only a pharmacist can sell it.`,
        'CONTROLLED_NEEDS_PHARMACIST',
      );
    if (!body.prescription_id)
      throw new Forbidden(
        `${m.name} is a controlled medicine: the sale needs a prescription (no emergency supply).`,
        'PRESCRIPTION_REQUIRED',
      );
    return;
  }
  if (!m.requires_prescription || body.prescription_id) return;
  if (!body.emergency_supply)
    throw new Forbidden(
      `${m.name} is prescription-only: choose the customer's prescription or record a new one.`,
      'PRESCRIPTION_REQUIRED',
    );
  if (!pharmacist)
    throw new Forbidden(
      `${m.name} is prescription-only: only a pharmacist can make an emergency supply without a prescription.`,
      'EMERGENCY_SUPPLY_NEEDS_PHARMACIST',
    );
}

/**
 * The same rule for a sale a till pushes (sales/sync.ts): each line's medicine is checked against the sale's
 * prescription and the role of the user who sold it, so central refuses a till's Rx-only line sold without a
 * prescription (an emergency supply travels with the prescription it recorded).
 */
export async function assertPushedSaleCovered(
  trx: Db,
  sale: { id: string; prescription_id: string | null; user_id: string },
  lines: ReadonlyArray<{ medicine_id: string }>,
): Promise<void> {
  // A will-call pickup's lines were dispensed when prepared (its entry arrives before the sale).
  const pickedUp = await willCallMedicinesOfSale(trx, sale.id);
  const ids = [...new Set(lines.map((l) => l.medicine_id))].filter((id) => !pickedUp.has(id));
  if (ids.length === 0) return;
  const meds = await trx
    .selectFrom('medicines')
    .select(['name', 'is_controlled', 'requires_prescription'])
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('is_controlled', '=', 1), eb('requires_prescription', '=', 1)]))
    .execute();
  if (meds.length === 0) return;
  const seller = await trx
    .selectFrom('users')
    .select('role')
    .where('id', '=', sale.user_id)
    .executeTakeFirst();
  const role = (seller?.role ?? 'cashier') as Role;
  for (const m of meds)
    assertPrescriptionCover(m, { prescription_id: sale.prescription_id, emergency_supply: null }, { role });
}

/** A discount as a percentage of what it is taken off (0 when there is nothing to take it off). */
export const pct = (part: number, whole: number) => (whole === 0 ? 0 : (part * 100) / whole);

/**
 * Validates each requested line against its medicine (active, VAT category known, price ceiling, line discount,
 * controlled and prescription-only rules) and prices it in the sale's currency. Throws the 4xx the request
 * deserves before anything is written.
 */
export function checkSaleLines<M extends SaleMedicine>(c: LineCheck<M>) {
  const { body, user, meds, exp, threshold, inSale, fmt, approvalNeeds } = c;
  const settings = { tax_policy: c.taxPolicy };
  const rxLines: Array<{ medicineId: string; quantity: number }> = [];
  const lineInputs = body.items.map((item, i) => {
    const m = meds.get(item.medicine_id);
    if (!m) throw new NotFound('Medicine', item.medicine_id);
    if (!m.is_active)
      throw new Invalid(
        `${m.name} is deactivated and cannot be sold.`,
        [{ path: `items.${i}.medicine_id`, message: 'inactive medicine' }],
        'MEDICINE_INACTIVE',
      );
    const ratePct = vatRateOf(settings.tax_policy, m.vat_category);
    if (ratePct === undefined)
      throw new Conflict(
        `${m.name} has VAT category ${m.vat_category}, which the tax policy does not define.`,
        'UNKNOWN_VAT_CATEGORY',
      );
    const catalogue = inSale(m.selling_price);
    const unitPrice =
      item.unit_price === undefined ? catalogue : toMinor(item.unit_price, exp, `items.${i}.unit_price`);
    if (m.max_public_price !== null && unitPrice > inSale(m.max_public_price))
      throw new Invalid(
        `The price ${fmt(unitPrice)} of ${m.name} is above its maximum public price ${fmt(inSale(m.max_public_price))}.`,
        [{ path: `items.${i}.unit_price`, message: 'above the maximum public price' }],
        'PRICE_ABOVE_MAXIMUM',
      );
    const need = { medicine_id: m.id, medicine_name: m.name, quantity: item.quantity };
    if (unitPrice < catalogue) approvalNeeds.price_overrides.push({ ...need, unit_price: unitPrice });
    const extended = unitPrice * item.quantity;
    if (!Number.isSafeInteger(extended)) throw new Invalid(`Line ${i + 1} is too large.`);
    const lineDiscount = item.discount === undefined ? 0 : toMinor(item.discount, exp, `items.${i}.discount`);
    if (lineDiscount > extended)
      throw new Invalid(
        `The discount on ${m.name} (${fmt(lineDiscount)}) is more than the line (${fmt(extended)}).`,
        [{ path: `items.${i}.discount`, message: 'more than the line amount' }],
        'DISCOUNT_TOO_LARGE',
      );
    if (pct(lineDiscount, extended) > threshold)
      approvalNeeds.discounts.push({ ...need, discount: lineDiscount });
    if (c.willCallMedicines.has(m.id)) {
      // prepared and dispensed for the will-call shelf: nothing more to dispense
    } else if (c.willCallMedicines.size > 0 && (m.requires_prescription || m.is_controlled)) {
      throw new Forbidden(
        `${m.name} is not in the will-call entry: sell it in a sale of its own.`,
        'PRESCRIPTION_REQUIRED',
      );
    } else {
      assertPrescriptionCover(m, body, user);
      if (m.requires_prescription || m.is_controlled)
        rxLines.push({ medicineId: m.id, quantity: item.quantity });
    }
    return {
      item,
      m,
      quantity: item.quantity,
      unitPrice,
      catalogue,
      lineDiscount,
      rate: scaledRate(ratePct),
      category: m.vat_category,
    };
  });
  return { lineInputs, rxLines };
}
