import { buildShelfLabel, type ShelfLabel, type ShelfLabelInput } from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { Invalid } from '../../lib/errors';
import { getMedicine } from '../medicines/service';
import { getSettings } from '../settings/service';
import type { DocumentSource, PrintJobForSource } from './sources';

/**
 * Where a shelf label's fields come from: the catalogue's medicine (reference_id is the medicine id), priced
 * in the base currency. Kept behind this one function so the catalogue module's service is the only thing the
 * label depends on.
 */
export async function shelfLabelInput(app: AppContext, job: PrintJobForSource): Promise<ShelfLabelInput> {
  const medicine = await getMedicine(app, job.reference_id, job.branch_id);
  if (!medicine.barcode) {
    throw new Invalid(`Medicine ${medicine.name} has no barcode to print on a shelf label.`, [
      { path: 'reference_id', message: 'the medicine has no barcode' },
    ]);
  }
  const { base_currency_code } = await getSettings(app);
  return {
    name: medicine.name,
    strength: medicine.strength,
    form: medicine.form,
    pack_size: medicine.unit && medicine.unit !== 'unit' ? medicine.unit : null,
    price: medicine.selling_price,
    currency_code: base_currency_code,
    barcode: medicine.barcode,
  };
}

/** The `label` document source: a shelf label for a medicine. */
export const shelfLabelSource: DocumentSource = async (app, job): Promise<ShelfLabel> =>
  buildShelfLabel(await shelfLabelInput(app, job));
