import type { Medicine } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { api } from '../api';
import { CheckboxField, fieldError, SelectField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useCurrencyExponents } from '../ui/money';
import { useForm } from '../ui/useForm';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import {
  barcodeOfGtin,
  EMPTY_MEDICINE,
  type FormErrors,
  formFromMedicine,
  type MedicineForm,
  medicineRequest,
} from './medicine-form';
import { uploadMedicinePhoto } from './photo';

function useSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: () => api.settings.get(), staleTime: 300_000 });
}

/** Create or edit a medicine; the server's validation messages show beside each field and nothing typed is lost. */
export function MedicineDialog({ medicine, onClose }: { medicine?: Medicine; onClose: () => void }) {
  const settings = useSettings();
  const exponent = useCurrencyExponents()(settings.data?.base_currency_code);
  const categories = useQuery({ queryKey: ['categories'], queryFn: () => api.categories.list() });
  const { form, set, fieldsFor } = useForm<MedicineForm>(
    medicine ? formFromMedicine(medicine) : EMPTY_MEDICINE,
  );
  const [local, setLocal] = useState<FormErrors>({});
  const [photo, setPhoto] = useState<File | null>(null);
  const [savedId, setSavedId] = useState<string | undefined>(medicine?.id);
  const preview = usePreview(photo, medicine?.image_url ?? null);
  const save = useSaveThenClose({
    save: async (body: Parameters<typeof api.medicines.create>[0]) => {
      const saved = savedId ? await api.medicines.update(savedId, body) : await api.medicines.create(body);
      setSavedId(saved.id);
      return photo ? uploadMedicinePhoto(saved.id, photo) : saved;
    },
    invalidates: [['medicines']],
    onClose,
  });
  const deactivate = useSaveThenClose({
    save: () => api.medicines.deactivate(medicine!.id),
    invalidates: [['medicines']],
    onClose,
  });
  const submit = () => {
    const request = medicineRequest(form, exponent);
    if ('errors' in request) return setLocal(request.errors);
    setLocal({});
    const { is_active, ...rest } = request.body;
    save.mutate(medicine ? { ...rest, is_active } : rest);
  };
  const server = fieldsFor(save.error);
  const field = <K extends keyof MedicineForm & string>(key: K) => ({
    ...server(key),
    error: local[key] ?? fieldError(save.error, key),
  });
  const scan = useBarcodeScan((code) => set('barcode')(code));
  const vatCategories = Object.keys(settings.data?.tax_policy.vat_rates ?? { standard: 0 });
  return (
    <FormDialog
      title={medicine ? `Edit ${medicine.name}` : 'New medicine'}
      onClose={onClose}
      onSubmit={submit}
      error={save.error ?? deactivate.error}
      pending={save.isPending}
      submitLabel={medicine ? 'Save changes' : 'Create medicine'}
      className="medicine-form"
      actions={
        medicine?.is_active && (
          <button
            type="button"
            className="danger"
            disabled={deactivate.isPending}
            onClick={() => deactivate.mutate()}
          >
            Deactivate
          </button>
        )
      }
    >
      <div className="form-grid">
        <TextField label="Name" {...field('name')} />
        <TextField label="Generic name" {...field('generic_name')} />
        <TextField label="Strength" {...field('strength')} />
        <TextField label="Form" {...field('form')} placeholder="tablet, syrup…" />
        <TextField label="Unit" {...field('unit')} />
        <TextField
          label="Barcode"
          {...field('barcode')}
          onKeyDown={scan}
          hint="Scan or type; a GS1 DataMatrix gives its GTIN"
        />
        <SelectField
          label="Category"
          {...field('category')}
          options={[
            { value: '', label: 'No category' },
            ...(categories.data?.items ?? []).map((c) => ({ value: c.slug, label: c.name })),
          ]}
        />
        <TextField label="Selling price" inputMode="decimal" {...field('selling_price')} />
        <TextField label="Maximum public price" inputMode="decimal" {...field('max_public_price')} />
        <SelectField
          label="VAT category"
          {...field('vat_category')}
          options={vatCategories.map((v) => ({ value: v, label: v }))}
        />
        <TextField label="Low-stock threshold" inputMode="numeric" {...field('low_stock_threshold')} />
        <TextField label="Regulator registration no." {...field('regulator_registration_no')} />
      </div>
      <div className="checkbox-row">
        <CheckboxField
          label="Prescription only (Rx)"
          checked={form.requires_prescription}
          onChange={set('requires_prescription')}
        />
        <CheckboxField label="Controlled" checked={form.is_controlled} onChange={set('is_controlled')} />
        <CheckboxField
          label="Cold chain"
          checked={form.requires_cold_chain}
          onChange={set('requires_cold_chain')}
        />
        {medicine && <CheckboxField label="Active" checked={form.is_active} onChange={set('is_active')} />}
      </div>
      <div className="field photo-field">
        <label htmlFor="medicine-photo">Photo</label>
        <input
          id="medicine-photo"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          onChange={(e) => setPhoto(e.target.files?.[0] ?? null)}
        />
        {preview && (
          <img src={preview} alt={`Pack of ${form.name || 'the new medicine'}`} className="photo-preview" />
        )}
        {fieldError(save.error, 'image_key') && (
          <small className="field-error">{fieldError(save.error, 'image_key')}</small>
        )}
      </div>
    </FormDialog>
  );
}

/** An object URL for the chosen file (revoked when replaced), else the stored photo's URL. */
function usePreview(file: File | null, stored: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return url ?? stored;
}

/**
 * A scanner types into the barcode field and ends with Enter: Enter reads the code with the server's scan
 * classification (the one GS1 parser) and keeps the retail barcode; it never submits the form.
 */
function useBarcodeScan(setCode: (code: string) => void) {
  return (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const raw = e.currentTarget.value;
    if (!raw.trim()) return;
    api.scanners
      .classify({ code: raw })
      .then((c) => {
        if (c.kind === 'gs1' && c.gtin) setCode(barcodeOfGtin(c.gtin));
        else if (c.code) setCode(c.code);
      })
      .catch(() => undefined);
  };
}
