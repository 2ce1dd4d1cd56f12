import type { PrintDocumentType, ReceiptTemplate } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { useForm } from '../ui/useForm';
import { saveTarget, templateInUse, type Width } from './template-width';

const WIDTHS = [
  { value: '80', label: '80 mm (48 columns)' },
  { value: '58', label: '58 mm (32 columns)' },
];

const widthLabel = (t: ReceiptTemplate) =>
  t.paper_width_mm ? ` · ${t.paper_width_mm} mm` : ' · both widths';

const DOCUMENT_TYPES: { value: PrintDocumentType; label: string }[] = [
  { value: 'receipt', label: 'Receipt' },
  { value: 'invoice', label: 'Invoice' },
  { value: 'credit_note', label: 'Credit note' },
  { value: 'report', label: 'Z report' },
];

function TemplateEditor({
  documentType,
  width,
  template,
  onSaved,
}: {
  documentType: PrintDocumentType;
  width: Width;
  template: ReceiptTemplate | null;
  onSaved: (t: ReceiptTemplate) => void;
}) {
  const queryClient = useQueryClient();
  const [onlyThisWidth, setOnlyThisWidth] = useState(template ? template.paper_width_mm !== null : true);
  const { form, set, fieldsFor } = useForm({
    name:
      template?.name ??
      `${DOCUMENT_TYPES.find((d) => d.value === documentType)?.label ?? 'Receipt'} template`,
    header: template?.header ?? '',
    footer: template?.footer ?? '',
    show_vat_breakdown: template?.show_vat_breakdown ?? true,
    show_qr: template?.show_qr ?? true,
    show_customer: template?.show_customer ?? true,
    show_return_policy: template?.show_return_policy ?? true,
    is_default: template?.is_default ?? true,
  });
  const { name: _name, is_default: _default, ...shown } = form;
  const previewInput = useDeferredValue({
    ...shown,
    document_type: documentType,
    paper_width_mm: width,
  });
  const preview = useQuery({
    queryKey: ['template-preview', previewInput],
    queryFn: ({ signal }) => api.printing.previewTemplate(previewInput, signal),
    placeholderData: keepPreviousData,
  });
  const save = useMutation({
    mutationFn: () => {
      const target = saveTarget(template, onlyThisWidth);
      const paper_width_mm = onlyThisWidth ? width : null;
      return 'update' in target
        ? api.printing.updateTemplate(target.update, { ...form, paper_width_mm })
        : api.printing.createTemplate({
            ...form,
            name: template && form.name === template.name ? `${form.name} (${width} mm)` : form.name,
            document_type: documentType,
            paper_width_mm,
          });
    },
    onSuccess: (saved) => {
      queryClient.invalidateQueries({ queryKey: ['templates'] });
      onSaved(saved);
    },
  });
  const field = fieldsFor(save.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <div className="template-editor">
      <form onSubmit={submit} noValidate aria-label="Template">
        <ErrorNotice error={save.error} />
        <TextField label="Template name" {...field('name')} />
        <TextAreaField label="Header" rows={3} maxLength={1000} {...field('header')} />
        <TextAreaField label="Footer" rows={3} maxLength={1000} {...field('footer')} />
        <CheckboxField
          label="VAT breakdown"
          checked={form.show_vat_breakdown}
          onChange={set('show_vat_breakdown')}
        />
        <CheckboxField label="Fiscal QR code" checked={form.show_qr} onChange={set('show_qr')} />
        <CheckboxField label="Customer name" checked={form.show_customer} onChange={set('show_customer')} />
        <CheckboxField
          label="Return policy"
          checked={form.show_return_policy}
          onChange={set('show_return_policy')}
        />
        <CheckboxField
          label={`Only for ${width} mm paper`}
          checked={onlyThisWidth}
          onChange={setOnlyThisWidth}
        />
        <CheckboxField
          label="Use for this document type"
          checked={form.is_default}
          onChange={set('is_default')}
        />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            Save template
          </button>
        </div>
      </form>
      <div className="template-preview">
        <ErrorNotice error={preview.error} />
        <figure className="receipt-preview-frame" aria-labelledby="receipt-preview-title">
          <figcaption id="receipt-preview-title">Receipt preview</figcaption>
          <p className="muted">On {width} mm paper</p>
          <pre className="receipt-preview" data-columns={preview.data?.columns}>
            {preview.data?.text ?? 'Rendering…'}
          </pre>
        </figure>
      </div>
    </div>
  );
}

/**
 * Header, footer and options of each document type and paper width, with the printed layout beside them as
 * you type. A template is for one width or both; the editor opens the one a printer of the chosen width uses.
 */
export function TemplatesPanel() {
  const [documentType, setDocumentType] = useState<PrintDocumentType>('receipt');
  const [width, setWidth] = useState<Width>(80);
  const [selected, setSelected] = useState<string>('');
  const [saved, setSaved] = useState('');
  const templates = useQuery({
    queryKey: ['templates', documentType],
    queryFn: () => api.printing.templates({ document_type: documentType }),
  });
  const items = (templates.data?.items ?? []).filter(
    (t) => t.paper_width_mm === null || t.paper_width_mm === width,
  );
  const current =
    items.find((t) => t.id === selected) ?? (selected === 'new' ? null : templateInUse(items, width));
  return (
    <section aria-label="Receipt templates">
      <div className="filters">
        <SelectField
          label="Document type"
          value={documentType}
          onChange={(v) => {
            setDocumentType(v as PrintDocumentType);
            setSelected('');
            setSaved('');
          }}
          options={DOCUMENT_TYPES}
        />
        <SelectField
          label="Paper width"
          value={String(width)}
          onChange={(v) => {
            setWidth(Number(v) as Width);
            setSelected('');
            setSaved('');
          }}
          options={WIDTHS}
        />
        <SelectField
          label="Template"
          value={current?.id ?? 'new'}
          onChange={setSelected}
          options={[
            ...items.map((t) => ({
              value: t.id,
              label: `${t.name}${widthLabel(t)}${t === templateInUse(items, width) ? ' (in use)' : ''}${t.branch_id ? '' : ' · all branches'}`,
            })),
            { value: 'new', label: 'New template…' },
          ]}
        />
      </div>
      <ErrorNotice error={templates.error} />
      {saved && <p role="status">{saved}</p>}
      {templates.data && (
        <TemplateEditor
          key={`${documentType}:${width}:${current?.id ?? 'new'}`}
          documentType={documentType}
          width={width}
          template={current}
          onSaved={(t) => {
            setSelected(t.id);
            setSaved(`Template saved: ${t.name}.`);
          }}
        />
      )}
    </section>
  );
}
