import type { Role } from '@pharmacy/contracts';
import { whoCan } from '@pharmacy/contracts/roles';
import { type ButtonHTMLAttributes, useId } from 'react';
import { useUser } from '../session/SessionProvider';

/**
 * A button for an action only some roles may take (a named set of contracts/roles.ts; admin always may): for
 * anyone else it stays in place, disabled, and says who can ("Only a branch manager or an admin can …") beside
 * it, in words a touch screen shows too (a title alone needs a mouse).
 */
export function RoleButton({
  roles,
  action,
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { roles: readonly Role[]; action: string }) {
  const { role } = useUser();
  const hintId = useId();
  if (role === 'admin' || roles.includes(role)) return <button type="button" {...button} />;
  const words = `${whoCan(roles, action)}.`;
  return (
    <span className="role-gated">
      <button
        type="button"
        {...button}
        onClick={undefined}
        disabled
        title={words}
        aria-describedby={hintId}
      />
      <small id={hintId} className="hint">
        {words}
      </small>
    </span>
  );
}
