import type { Printer, PrinterTransportKind } from '@pharmacy/contracts';
import { api } from '../api';
import { CheckboxField, fieldError, SelectField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useForm } from '../ui/useForm';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import { CODE_PAGE_OPTIONS, CONNECTION_HINTS } from './printer-state';

/** What "Find printers" hands to the dialog when the user picks a device. */
export interface PrinterPick {
  transport: PrinterTransportKind;
  address: string;
  name?: string;
}

const CONNECTIONS = [
  { value: 'tcp', label: 'tcp (network)' },
  { value: 'usb', label: 'usb' },
  { value: 'serial', label: 'serial' },
  { value: 'device', label: 'device' },
];
const BAUDS = ['9600', '19200', '38400', '57600', '115200', '4800', '2400', '1200', '230400'];

export function PrinterDialog({
  printer,
  pick,
  onClose,
}: {
  printer?: Printer;
  pick?: PrinterPick;
  onClose: () => void;
}) {
  const { form, set, fieldsFor } = useForm({
    name: printer?.name ?? pick?.name ?? '',
    transport: (printer?.transport ?? pick?.transport ?? 'tcp') as PrinterTransportKind,
    address: printer?.address ?? pick?.address ?? '',
    baud_rate: String(printer?.baud_rate ?? 9600),
    paper_width_mm: String(printer?.paper_width_mm ?? 80),
    command_set: printer?.command_set ?? 'epson',
    code_page: printer?.code_page ?? '',
    open_drawer: printer?.open_drawer ?? false,
    is_default: printer?.is_default ?? false,
    is_active: printer?.is_active ?? true,
  });
  const save = useSaveThenClose({
    save: () => {
      const body = {
        name: form.name,
        transport: form.transport,
        address: form.address.trim(),
        baud_rate: form.transport === 'serial' ? Number(form.baud_rate) : null,
        paper_width_mm: Number(form.paper_width_mm) as 58 | 80,
        command_set: form.command_set,
        code_page: form.code_page || null,
        open_drawer: form.open_drawer,
        is_default: form.is_default,
        is_active: form.is_active,
      };
      return printer ? api.printing.updatePrinter(printer.id, body) : api.printing.createPrinter(body);
    },
    invalidates: [['printers'], ['printer-status']],
    onClose,
  });
  const err = save.error;
  const field = fieldsFor(err);
  return (
    <FormDialog
      title={printer ? `Edit ${printer.name}` : 'Add printer'}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      error={err}
      pending={save.isPending}
      submitLabel={printer ? 'Save changes' : 'Save printer'}
    >
      <TextField label="Name" data-autofocus="" {...field('name')} />
      <SelectField
        label="Connection"
        value={form.transport}
        onChange={(v) => set('transport')(v as PrinterTransportKind)}
        options={CONNECTIONS}
        error={fieldError(err, 'transport')}
      />
      <TextField label="Address" hint={CONNECTION_HINTS[form.transport]} {...field('address')} />
      {form.transport === 'serial' && (
        <SelectField
          label="Baud rate"
          {...field('baud_rate')}
          options={BAUDS.map((b) => ({ value: b, label: b }))}
        />
      )}
      <div className="form-row">
        <SelectField
          label="Paper width"
          {...field('paper_width_mm')}
          options={[
            { value: '80', label: '80 mm' },
            { value: '58', label: '58 mm' },
          ]}
        />
        <SelectField
          label="Command set"
          value={form.command_set}
          onChange={(v) => set('command_set')(v as 'epson' | 'star')}
          options={[
            { value: 'epson', label: 'Epson (ESC/POS)' },
            { value: 'star', label: 'Star' },
          ]}
          error={fieldError(err, 'command_set')}
        />
      </div>
      <SelectField label="Code page" {...field('code_page')} options={CODE_PAGE_OPTIONS} />
      <CheckboxField
        label="Cash drawer on this printer"
        checked={form.open_drawer}
        onChange={set('open_drawer')}
      />
      <CheckboxField
        label="Default printer of the branch"
        checked={form.is_default}
        onChange={set('is_default')}
      />
      <CheckboxField label="Active" checked={form.is_active} onChange={set('is_active')} />
    </FormDialog>
  );
}
