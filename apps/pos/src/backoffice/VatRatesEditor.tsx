import { useState } from 'react';

const REQUIRED = new Set(['standard', 'zero', 'exempt']);

/** Rates in percent per vat_category; standard, zero and exempt always exist. */
export function VatRatesEditor({
  rates,
  onChange,
  error,
}: {
  rates: Record<string, number>;
  onChange: (rates: Record<string, number>) => void;
  error?: string | undefined;
}) {
  const [newCategory, setNewCategory] = useState('');
  const add = () => {
    const key = newCategory.trim().toLowerCase();
    if (!key || Object.hasOwn(rates, key)) return;
    onChange({ ...rates, [key]: 0 });
    setNewCategory('');
  };
  return (
    <div className="vat-rates">
      <table aria-label="VAT rates">
        <thead>
          <tr>
            <th scope="col">VAT category</th>
            <th scope="col">Rate (%)</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(rates).map(([category, rate]) => (
            <tr key={category}>
              <th scope="row">{category}</th>
              <td>
                <input
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={100}
                  step="any"
                  aria-label={`VAT rate for ${category} (%)`}
                  value={Number.isFinite(rate) ? rate : ''}
                  onChange={(e) =>
                    onChange({
                      ...rates,
                      [category]: e.target.value === '' ? Number.NaN : Number(e.target.value),
                    })
                  }
                />
              </td>
              <td>
                {!REQUIRED.has(category) && (
                  <button
                    type="button"
                    aria-label={`Remove VAT category ${category}`}
                    onClick={() =>
                      onChange(Object.fromEntries(Object.entries(rates).filter(([k]) => k !== category)))
                    }
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <p className="field-error">{error}</p>}
      <div className="inline-add">
        <input
          aria-label="New VAT category"
          placeholder="e.g. reduced"
          value={newCategory}
          onChange={(e) => setNewCategory(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" onClick={add}>
          Add category
        </button>
      </div>
    </div>
  );
}
