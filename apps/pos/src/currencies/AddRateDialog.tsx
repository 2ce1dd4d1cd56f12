import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { fieldError, SelectField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import { startOfLocalDay } from '@pharmacy/contracts/time';

/** Files an exchange rate in force from the start of a day of the organisation's calendar (admin). */
export function AddRateDialog({
  codes,
  base,
  onClose,
}: {
  codes: string[];
  base: string | undefined;
  onClose: () => void;
}) {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const foreign = codes.filter((c) => c !== base);
  const [from, setFrom] = useState(foreign[0] ?? '');
  const [to, setTo] = useState(base ?? '');
  const [rate, setRate] = useState('');
  const [day, setDay] = useState('');
  const [source, setSource] = useState('manual');
  const add = useSaveThenClose({
    save: () =>
      api.currency.addRate({
        from_code: from,
        to_code: to || undefined,
        rate: rate.trim().replace(',', '.'),
        effective_at: day ? startOfLocalDay(day, settings.data?.timezone) : undefined,
        source,
      }),
    invalidates: [['currencies']],
    onClose,
  });
  const err = add.error;
  const options = codes.map((c) => ({ value: c, label: c }));
  return (
    <FormDialog
      title="Add an exchange rate"
      onClose={onClose}
      onSubmit={() => add.mutate()}
      error={err}
      pending={add.isPending}
      submitLabel="Add rate"
    >
      <SelectField
        label="From"
        value={from}
        onChange={setFrom}
        options={options}
        error={fieldError(err, 'from_code')}
      />
      <SelectField
        label="To"
        value={to}
        onChange={setTo}
        options={options}
        error={fieldError(err, 'to_code')}
      />
      <TextField
        label="Rate"
        inputMode="decimal"
        hint={`1 ${from || '…'} = this many ${to || '…'}`}
        value={rate}
        onChange={setRate}
        error={fieldError(err, 'rate')}
      />
      <TextField
        label="Effective from"
        type="date"
        hint={`From the start of that day (${settings.data?.timezone ?? 'organisation time'}); empty: now`}
        value={day}
        onChange={setDay}
        error={fieldError(err, 'effective_at')}
      />
      <TextField label="Source" value={source} onChange={setSource} error={fieldError(err, 'source')} />
    </FormDialog>
  );
}
