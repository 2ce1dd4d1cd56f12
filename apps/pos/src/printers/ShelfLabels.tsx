import type { Medicine } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';

/** Pick medicines (by search, or every one of a category) and print their shelf labels on a label printer. */
export function ShelfLabels() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [printerId, setPrinterId] = useState('');
  const [picked, setPicked] = useState<Map<string, Medicine>>(new Map());
  const deferred = useDeferredValue(search.trim());
  const categories = useQuery({ queryKey: ['categories'], queryFn: () => api.categories.list() });
  const printers = useQuery({ queryKey: ['printers', 'list'], queryFn: () => api.printing.printers() });
  const medicines = useQuery({
    queryKey: ['label-medicines', deferred, category],
    queryFn: () =>
      api.medicines.list({
        ...(deferred && { search: deferred }),
        ...(category && { category }),
        page_size: 100,
      }),
    enabled: deferred.length > 0 || category !== '',
    placeholderData: keepPreviousData,
  });
  const print = useMutation({
    mutationFn: async () => {
      for (const m of picked.values())
        await api.printing.createJob({
          document_type: 'label',
          reference_id: m.id,
          printer_id: printerId || null,
        });
      return picked.size;
    },
  });
  const toggle = (m: Medicine) =>
    setPicked((prev) => {
      const next = new Map(prev);
      if (next.has(m.id)) next.delete(m.id);
      else next.set(m.id, m);
      return next;
    });
  const list = (medicines.data?.items ?? []).filter((m) => m.barcode);
  return (
    <section aria-label="Shelf labels">
      <search className="filters">
        <TextField label="Search medicines" type="search" value={search} onChange={setSearch} />
        <SelectField
          label="Category"
          value={category}
          onChange={setCategory}
          options={[
            { value: '', label: 'Any' },
            ...(categories.data?.items ?? []).map((c) => ({ value: c.slug, label: c.name })),
          ]}
        />
      </search>
      <div className="toolbar">
        <button
          type="button"
          onClick={() => setPicked(new Map([...picked, ...list.map((m) => [m.id, m] as const)]))}
          disabled={list.length === 0}
        >
          Pick all shown
        </button>
        <button type="button" onClick={() => setPicked(new Map())} disabled={picked.size === 0}>
          Clear
        </button>
      </div>
      <ErrorNotice error={medicines.error ?? print.error} />
      <ul className="pick-list" aria-label="Medicines">
        {list.map((m) => (
          <li key={m.id}>
            <label className="field checkbox">
              <input type="checkbox" checked={picked.has(m.id)} onChange={() => toggle(m)} />
              {m.name} <span className="muted">{m.barcode}</span>
            </label>
          </li>
        ))}
      </ul>
      {medicines.data && list.length === 0 && <p>No medicine with a barcode matches.</p>}
      <div className="filters">
        <SelectField
          label="Label printer"
          value={printerId}
          onChange={setPrinterId}
          options={[
            { value: '', label: 'Branch default printer' },
            ...(printers.data?.items ?? [])
              .filter((p) => p.is_active)
              .map((p) => ({ value: p.id, label: p.name })),
          ]}
        />
      </div>
      <button
        type="button"
        className="primary"
        disabled={picked.size === 0 || print.isPending}
        onClick={() => print.mutate()}
      >
        Print {picked.size} label{picked.size === 1 ? '' : 's'}
      </button>
      {print.isSuccess && <p role="status">{print.data} label jobs queued; see Print queue.</p>}
    </section>
  );
}
