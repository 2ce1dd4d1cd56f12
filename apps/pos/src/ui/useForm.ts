import { useState } from 'react';
import { fieldError } from './fields';

/**
 * A form's values, with a change handler per field (`set('phone')`) and a binder that gives a field component
 * its value, change handler and the server's message for it once a save failed validation:
 * `const field = fieldsFor(save.error)`, then `<TextField label="Phone" {...field('phone')} />`.
 */
export function useForm<T extends object>(initial: T | (() => T)) {
  const [form, setForm] = useState<T>(initial);
  const set =
    <K extends keyof T>(key: K) =>
    (value: T[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const fieldsFor =
    (error: unknown) =>
    <K extends keyof T & string>(key: K) => ({
      value: form[key],
      onChange: set(key),
      error: fieldError(error, key),
    });
  return { form, setForm, set, fieldsFor };
}
