import type { Customer } from '@pharmacy/contracts';
import { api } from '../api';

/**
 * Before creating or renaming a customer: the customers with the same phone number or name, so the counter
 * opens the existing record instead of making a second one. A warning, never a refusal.
 */
export async function findDuplicates(fields: {
  name: string;
  phone: string;
  excludeId?: string;
}): Promise<Customer[]> {
  return api.customers.possibleDuplicates({
    name: fields.name,
    phone: fields.phone,
    ...(fields.excludeId && { exclude_id: fields.excludeId }),
  });
}

export function DuplicateWarning({
  duplicates,
  openLabel,
  onOpen,
  proceedLabel,
  onProceed,
}: {
  duplicates: Customer[];
  openLabel?: string;
  onOpen?: (c: Customer) => void;
  proceedLabel: string;
  onProceed: () => void;
}) {
  return (
    <div role="alert" className="notice warn" aria-label="Possible duplicate customer">
      <p>
        {duplicates.length === 1 ? 'A customer' : `${duplicates.length} customers`} with the same phone number
        or name already {duplicates.length === 1 ? 'exists' : 'exist'}:
      </p>
      <ul className="pick-list">
        {duplicates.map((c) => (
          <li key={c.id}>
            <span>
              <strong>{c.name}</strong> <span className="muted">{c.phone || 'no phone'}</span>
            </span>
            {onOpen && openLabel && (
              <button type="button" onClick={() => onOpen(c)} aria-label={`${openLabel} ${c.name}`}>
                {openLabel}
              </button>
            )}
          </li>
        ))}
      </ul>
      <button type="button" onClick={onProceed}>
        {proceedLabel}
      </button>
    </div>
  );
}
