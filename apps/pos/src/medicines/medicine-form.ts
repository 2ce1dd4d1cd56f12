import type { CreateMedicineRequest, Medicine } from '@pharmacy/contracts';
import { minorToNumber, parseMoneyInput } from '@pharmacy/contracts/money';
import { gtinToEan13 } from '@pharmacy/contracts/gs1';

/** What the medicine form holds: text as typed (prices stay strings until saved, never floats). */
export interface MedicineForm {
  name: string;
  generic_name: string;
  strength: string;
  form: string;
  unit: string;
  barcode: string;
  category: string;
  selling_price: string;
  max_public_price: string;
  vat_category: string;
  low_stock_threshold: string;
  regulator_registration_no: string;
  requires_prescription: boolean;
  is_controlled: boolean;
  requires_cold_chain: boolean;
  is_active: boolean;
}

export const EMPTY_MEDICINE: MedicineForm = {
  name: '',
  generic_name: '',
  strength: '',
  form: '',
  unit: 'unit',
  barcode: '',
  category: '',
  selling_price: '',
  max_public_price: '',
  vat_category: 'standard',
  low_stock_threshold: '10',
  regulator_registration_no: '',
  requires_prescription: false,
  is_controlled: false,
  requires_cold_chain: false,
  is_active: true,
};

export function formFromMedicine(m: Medicine): MedicineForm {
  return {
    name: m.name,
    generic_name: m.generic_name,
    strength: m.strength,
    form: m.form,
    unit: m.unit,
    barcode: m.barcode ?? '',
    category: m.category ?? '',
    selling_price: m.selling_price,
    max_public_price: m.max_public_price ?? '',
    vat_category: m.vat_category,
    low_stock_threshold: String(m.low_stock_threshold),
    regulator_registration_no: m.regulator_registration_no,
    requires_prescription: m.requires_prescription,
    is_controlled: m.is_controlled,
    requires_cold_chain: m.requires_cold_chain,
    is_active: m.is_active,
  };
}

export type FormErrors = Partial<Record<keyof MedicineForm, string>>;

type Body = Omit<CreateMedicineRequest, 'is_active'> & { is_active: boolean };

/**
 * The request body of a form, or the fields the browser can already tell are wrong (an amount that is no
 * amount in the currency's decimals, a threshold that is no whole number). Everything else is the server's
 * to judge: its messages land beside the same fields.
 */
export function medicineRequest(f: MedicineForm, exponent: number): { body: Body } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const money = (field: 'selling_price' | 'max_public_price', text: string) => {
    const minor = parseMoneyInput(text, exponent);
    if (minor === null || minor < 0) {
      errors[field] = `must be an amount with at most ${exponent} decimals`;
      return 0;
    }
    return minorToNumber(minor, exponent);
  };
  if (f.selling_price.trim() === '') errors.selling_price = 'must not be empty';
  const selling = errors.selling_price ? 0 : money('selling_price', f.selling_price);
  const max = f.max_public_price.trim() === '' ? null : money('max_public_price', f.max_public_price);
  const threshold = Number(f.low_stock_threshold);
  if (!/^\d+$/.test(f.low_stock_threshold.trim())) errors.low_stock_threshold = 'must be a whole number';
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      name: f.name,
      generic_name: f.generic_name,
      strength: f.strength,
      form: f.form,
      unit: f.unit,
      barcode: f.barcode.trim() === '' ? null : f.barcode.trim(),
      category: f.category === '' ? null : f.category,
      selling_price: selling,
      max_public_price: max,
      vat_category: f.vat_category,
      low_stock_threshold: threshold,
      regulator_registration_no: f.regulator_registration_no,
      requires_prescription: f.requires_prescription,
      is_controlled: f.is_controlled,
      requires_cold_chain: f.requires_cold_chain,
      is_active: f.is_active,
    },
  };
}

/** The EAN-13 a GS1 GTIN-14 stands for (its leading indicator zero dropped, by contracts' gs1), else the GTIN. */
export function barcodeOfGtin(gtin: string): string {
  return gtinToEan13(gtin) ?? gtin;
}
