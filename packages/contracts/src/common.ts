import { z } from 'zod';
import { ROLES } from './roles';

/** A role's name (the list and the named sets of roles are in roles.ts). */
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const MAX_PAGE_SIZE = 200;

export const Id = z.string().uuid({ message: 'must be a UUID' });
export const Timestamp = z.string().describe('ISO-8601 UTC timestamp with milliseconds');
export const DecimalString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .describe('decimal amount as a string');
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' })
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'is not a real calendar date',
    },
  );

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const noControl = { message: 'must not contain control characters' };

/** A bounded string without control characters (line breaks and tabs allowed), e.g. receipt texts. */
export const PlainText = (max: number) =>
  z
    .string()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => !CONTROL_CHARACTERS.test(s), noControl);

/** A trimmed, bounded string without control characters. */
export const OptionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => !CONTROL_CHARACTERS.test(s), noControl);

/** A trimmed, non-empty, bounded string without control characters. */
export const Text = (max = 200) =>
  z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => !CONTROL_CHARACTERS.test(s), noControl);

/** Money in a request: a finite, non-negative number; the service checks decimals against the currency. */
export const MoneyInput = z
  .number({ message: 'must be a number' })
  .finite({ message: 'must be finite' })
  .nonnegative({ message: 'must not be negative' })
  .max(1_000_000_000_000, { message: 'is too large' });

export const BoolQuery = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1, { message: 'must be at least 1' }).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1, { message: 'must be at least 1' })
    .max(MAX_PAGE_SIZE, { message: `must be at most ${MAX_PAGE_SIZE}` })
    .default(50),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });

export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof Problem>;
