/**
 * The password rule shared by the server and the till's UI, without schemas (the UI imports this file alone
 * through `@pharmacy/contracts/password`). The server also refuses the 10,000 most common passwords, a list
 * too large for the UI's bundle.
 */
export const PASSWORD_MIN_LENGTH = 8;

/** The rule in words, shown next to every new-password field. */
export const PASSWORD_RULE =
  'At least 8 characters; not a common password, not one character repeated, not your email or its name part.';

/**
 * Why a new password is refused by the rules the UI can check, or undefined: too short, whitespace only, one
 * character repeated, or the email or its local part (case and surrounding spaces ignored).
 */
export function passwordProblem(password: string, email?: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.trim() === '') return 'must not be only spaces';
  if (new Set(password).size === 1) return 'must not be one character repeated';
  const lower = password.trim().toLowerCase();
  const address = email?.trim().toLowerCase();
  if (address && (lower === address || lower === address.split('@')[0]))
    return 'must not be your email or its name part';
  return undefined;
}
