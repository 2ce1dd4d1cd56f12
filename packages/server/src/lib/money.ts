import { MoneyInputError, toMinor as toMinorExact } from '@pharmacy/contracts/money';
import { Invalid } from './errors';

/**
 * The server's crossing of the shared money rules (@pharmacy/contracts/money): a request amount
 * the currency cannot hold is a 400 naming the field.
 */
export function toMinor(value: number, exponent: number, field = 'amount'): number {
  try {
    return toMinorExact(value, exponent, field);
  } catch (error) {
    if (!(error instanceof MoneyInputError)) throw error;
    throw new Invalid(
      error.message,
      error.fieldMessage ? [{ path: error.field, message: error.fieldMessage }] : undefined,
    );
  }
}

export { formatMinor, mulDivRound, parseDecimalToMinor } from '@pharmacy/contracts/money';
