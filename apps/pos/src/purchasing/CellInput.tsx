import { useId } from 'react';

/** A compact input inside a table cell, named by aria-label, with its own error under it. */
export function CellInput({
  label,
  value,
  onChange,
  error,
  inputMode,
  type = 'text',
  onEnter,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  inputMode?: 'numeric' | 'decimal' | 'text';
  type?: 'text' | 'date';
  onEnter?: () => void;
}) {
  const id = useId();
  return (
    <span className="cell-input">
      <input
        aria-label={label}
        aria-describedby={error ? `${id}-error` : undefined}
        type={type}
        value={value}
        inputMode={inputMode}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={
          onEnter
            ? (e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  onEnter();
                }
              }
            : undefined
        }
        aria-invalid={error ? true : undefined}
      />
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </span>
  );
}
