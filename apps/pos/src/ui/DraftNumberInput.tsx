import { type InputHTMLAttributes, useState } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  value: number;
  onCommit: (value: number) => void;
};

/**
 * A compact number input for table cells: while focused it keeps what is typed (so clearing the
 * field to type a new figure works), and commits every complete number.
 */
export function DraftNumberInput({ value, onCommit, onFocus, onBlur, ...rest }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      type="number"
      inputMode="decimal"
      value={draft ?? String(value)}
      onFocus={(e) => {
        setDraft(String(value));
        e.currentTarget.select();
        onFocus?.(e);
      }}
      onBlur={(e) => {
        setDraft(null);
        onBlur?.(e);
      }}
      onChange={(e) => {
        const text = e.target.value;
        setDraft(text);
        if (text !== '' && Number.isFinite(Number(text))) onCommit(Number(text));
      }}
      {...rest}
    />
  );
}
