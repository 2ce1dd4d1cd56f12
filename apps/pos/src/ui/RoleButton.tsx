import type { Role } from '@pharmacy/contracts';
import { whoCan } from '@pharmacy/contracts/roles';
import type { ButtonHTMLAttributes } from 'react';
import { useUser } from '../session/SessionProvider';

/**
 * A button for an action only some roles may take (a named set of contracts/roles.ts; admin always may): for
 * anyone else it stays in place, disabled, and says who can ("Only a branch manager or admin can …").
 */
export function RoleButton({
  roles,
  action,
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { roles: readonly Role[]; action: string }) {
  const { role } = useUser();
  const allowed = role === 'admin' || roles.includes(role);
  if (allowed) return <button type="button" {...button} />;
  return (
    <button type="button" {...button} onClick={undefined} disabled title={`${whoCan(roles, action)}.`} />
  );
}
