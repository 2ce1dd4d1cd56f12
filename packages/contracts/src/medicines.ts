import { z } from 'zod';
import {
  BoolQuery,
  DecimalString,
  Id,
  IsoDate,
  MoneyInput,
  OptionalText,
  PageQuery,
  Text,
  Timestamp,
} from './common';

export const Barcode = z
  .string({ message: 'must be a string' })
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(64, { message: 'must be at most 64 characters' })
  .regex(/^[0-9A-Za-z][0-9A-Za-z.\-/]*$/, { message: 'must be letters, digits, dots, dashes or slashes' });

const Quantity = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .min(0, { message: 'must not be negative' })
  .max(1_000_000_000, { message: 'is too large' });

export const Medicine = z.object({
  id: z.string(),
  name: z.string(),
  generic_name: z.string(),
  barcode: z.string().nullable(),
  category: z.string().nullable().describe('the category slug'),
  form: z.string(),
  strength: z.string(),
  unit: z.string(),
  selling_price: DecimalString,
  max_public_price: DecimalString.nullable(),
  stock_quantity: z
    .number()
    .int()
    .describe("units on hand in the caller's branch (or branch_id) in active, unexpired batches"),
  low_stock_threshold: z.number().int(),
  requires_prescription: z.boolean(),
  is_controlled: z.boolean(),
  requires_cold_chain: z.boolean(),
  is_active: z.boolean(),
  vat_category: z.string(),
  regulator_registration_no: z.string(),
  image_key: z.string().nullable(),
  image_url: z.string().nullable().describe('a read URL for the image, signed with a short expiry'),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Medicine = z.infer<typeof Medicine>;

const VatCategoryInput = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, { message: 'must be a vat category such as standard, zero or exempt' });

const MedicineFields = {
  name: Text(200),
  generic_name: OptionalText(200),
  barcode: Barcode.nullable(),
  category: z.string().trim().min(1).max(64).nullable(),
  form: OptionalText(60),
  strength: OptionalText(60),
  unit: OptionalText(30),
  selling_price: MoneyInput,
  max_public_price: MoneyInput.nullable(),
  low_stock_threshold: Quantity,
  requires_prescription: z.boolean({ message: 'must be true or false' }),
  is_controlled: z.boolean({ message: 'must be true or false' }),
  requires_cold_chain: z.boolean({ message: 'must be true or false' }),
  is_active: z.boolean({ message: 'must be true or false' }),
  vat_category: VatCategoryInput,
  regulator_registration_no: OptionalText(60),
};

export const CreateMedicineRequest = z
  .object({
    ...MedicineFields,
    generic_name: MedicineFields.generic_name.default(''),
    barcode: MedicineFields.barcode.optional(),
    category: MedicineFields.category.optional(),
    form: MedicineFields.form.default(''),
    strength: MedicineFields.strength.default(''),
    unit: MedicineFields.unit.default('unit'),
    max_public_price: MedicineFields.max_public_price.optional(),
    low_stock_threshold: Quantity.default(10),
    requires_prescription: MedicineFields.requires_prescription.default(false),
    is_controlled: MedicineFields.is_controlled.default(false),
    requires_cold_chain: MedicineFields.requires_cold_chain.default(false),
    is_active: MedicineFields.is_active.default(true),
    vat_category: VatCategoryInput.default('standard'),
    regulator_registration_no: MedicineFields.regulator_registration_no.default(''),
  })
  .strict();
export type CreateMedicineRequest = z.output<typeof CreateMedicineRequest>;

export const UpdateMedicineRequest = z
  .object(MedicineFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export type UpdateMedicineRequest = z.output<typeof UpdateMedicineRequest>;

export const MedicineParams = z.object({ medicineId: Id });
export const BarcodeParams = z.object({ code: Barcode });

export const ActiveFilter = z
  .enum(['true', 'false', 'all'], { message: 'must be true, false or all' })
  .default('true');

/** What the catalogue list sorts by (the back office's sortable columns). */
export const MEDICINE_SORTS = [
  'name',
  'generic_name',
  'category',
  'selling_price',
  'stock_quantity',
] as const;
export type MedicineSort = (typeof MEDICINE_SORTS)[number];

export const MedicineListQuery = PageQuery.extend({
  search: z.string().trim().max(100, { message: 'must be at most 100 characters' }).optional(),
  barcode: Barcode.optional().describe('exact barcode; a GTIN-14 with leading zeros matches the EAN-13'),
  category: z.string().trim().min(1).max(64).optional(),
  is_active: ActiveFilter,
  requires_prescription: BoolQuery.optional(),
  is_controlled: BoolQuery.optional(),
  low_stock: BoolQuery.optional().describe('stock at or below low_stock_threshold (including none)'),
  out_of_stock: BoolQuery.optional().describe('no sellable stock'),
  branch_id: Id.optional().describe('whose stock; branch-bound roles always get their own branch'),
  sort: z
    .enum(MEDICINE_SORTS, { message: `must be one of ${MEDICINE_SORTS.join(', ')}` })
    .default('name')
    .describe('the order of the list; ties by name'),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).default('asc'),
});

export const BranchStockQuery = z.object({
  branch_id: Id.optional().describe('whose stock; branch-bound roles always get their own branch'),
});

export const MedicineBatchSummary = z.object({
  id: z.string(),
  batch_number: z.string(),
  expiry_date: z.string(),
  qty_on_hand: z.number().int(),
  qty_reserved: z
    .number()
    .int()
    .describe('units on hand held for the will-call shelf: not available to sell (issue 27.1)'),
  regulator_status: z.string(),
  is_expired: z.boolean(),
  sellable: z.boolean(),
});

export const MedicineDetail = Medicine.extend({
  branch_id: z.string(),
  batches: z.array(MedicineBatchSummary).describe('batches of the branch that still hold stock, FEFO order'),
});
export type MedicineDetail = z.infer<typeof MedicineDetail>;

export const MOVEMENT_TYPES = [
  'purchase',
  'sale',
  'return',
  'transfer_out',
  'transfer_in',
  'adjustment',
  'write_off',
  'count',
] as const;
export const MovementType = z.enum(MOVEMENT_TYPES);
export type MovementType = z.infer<typeof MovementType>;

export const StockMovement = z.object({
  id: z.string(),
  type: MovementType,
  quantity: z.number().int().describe('signed change: positive in, negative out'),
  batch_id: z.string(),
  batch_number: z.string(),
  expiry_date: z.string(),
  branch_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  reference_type: z.string().nullable(),
  reference_id: z.string().nullable(),
  user_id: z.string().nullable(),
  user_name: z.string().nullable(),
  reason: z.string(),
  created_at: Timestamp,
});
export type StockMovement = z.infer<typeof StockMovement>;

export const LedgerMovement = StockMovement.extend({
  balance_after: z
    .number()
    .int()
    .nullable()
    .describe(
      'units on hand after this movement in the scope asked (branch, batch); null with a type filter',
    ),
});
export type LedgerMovement = z.infer<typeof LedgerMovement>;

export const MovementListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  type: MovementType.optional(),
  medicine_id: Id.optional(),
  batch_id: Id.optional(),
  from: IsoDate.optional().describe('first day, YYYY-MM-DD (UTC)'),
  to: IsoDate.optional().describe('last day, YYYY-MM-DD (UTC), inclusive'),
});

export const ControlledRegistryQuery = PageQuery.extend({
  branch_id: Id.optional(),
  medicine_id: Id.optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});

export const ControlledRegistryEntry = z.object({
  medicine_id: z.string(),
  medicine_name: z.string(),
  generic_name: z.string(),
  strength: z.string(),
  form: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  opening_balance: z.number().int().describe('sum of movements before `from`'),
  closing_balance: z.number().int(),
  on_hand: z.number().int().describe('sum of qty_on_hand over the branch batches'),
  balanced: z.boolean().describe('true when the ledger balance equals the batches on hand'),
  movements: z.array(StockMovement.extend({ balance_after: z.number().int() })),
});
