import type { Medicine } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type Ref, useEffect, useId, useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { useFormatMoney } from '../ui/money';

const DEBOUNCE_MS = 150;

/**
 * Search-as-you-type over name, generic name and barcode: a combobox whose list is walked with the
 * arrow keys and picked with Enter (or a tap).
 */
export function MedicineSearch({
  onPick,
  inputRef,
  label = 'Search medicines',
  sellSearch = false,
}: {
  onPick: (medicine: Medicine) => void;
  inputRef?: Ref<HTMLInputElement>;
  label?: string;
  /** Sell's own search box: the one F1 puts the cursor in. */
  sellSearch?: boolean;
}) {
  const money = useFormatMoney();
  const id = useId();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  // The highlighted medicine is kept by id: a keystroke puts it back on the first result, but the
  // debounced answer arriving after an arrow key keeps it where it is still listed.
  const [activeId, setActiveId] = useState<Medicine['id'] | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setTerm(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQuery({
    queryKey: ['medicine-search', term],
    queryFn: ({ signal }) => api.medicines.list({ search: term, page_size: 8 }, signal),
    enabled: term.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const items = term && text.trim() ? (results.data?.items ?? []) : [];
  const open = items.length > 0;
  const active = Math.max(
    0,
    items.findIndex((m) => m.id === activeId),
  );
  const moveTo = (index: number) => setActiveId(items[index]?.id ?? null);

  const pick = (m: Medicine) => {
    onPick(m);
    setText('');
    setTerm('');
    setActiveId(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && open) {
      e.preventDefault();
      moveTo(Math.min(items.length - 1, active + 1));
    } else if (e.key === 'ArrowUp' && open) {
      e.preventDefault();
      moveTo(Math.max(0, active - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const m = items[active];
      if (m) pick(m);
    } else if (e.key === 'Escape' && text) {
      e.preventDefault();
      setText('');
    }
  };

  return (
    <div className="medicine-search">
      <label htmlFor={`${id}-input`} className="field-label">
        {label}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        data-sell-search={sellSearch ? '' : undefined}
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder="Name, generic name or barcode"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${id}-opt-${active}` : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActiveId(null);
        }}
        onKeyDown={onKeyDown}
      />
      <ErrorNotice error={results.error} />
      <div
        id={`${id}-list`}
        role="listbox"
        aria-label="Matching medicines"
        className="search-results"
        hidden={!open}
      >
        {items.map((m, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (arrows + Enter)
          <div
            key={m.id}
            tabIndex={-1}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'active' : ''}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(m)}
          >
            <span className="result-name">
              {m.name}{' '}
              <span className="muted">
                {[m.generic_name, m.strength, m.form].filter(Boolean).join(' · ')}
              </span>
            </span>
            <span className="result-meta">
              {m.requires_prescription && <span className="badge">Rx</span>}
              {m.stock_quantity > 0 ? (
                `${m.stock_quantity} in stock`
              ) : (
                <strong className="field-error">Out of stock</strong>
              )}
              <span>{money(m.selling_price)}</span>
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}
