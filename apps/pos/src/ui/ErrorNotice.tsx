import { useEffect, useRef } from 'react';
import { ApiError } from '@pharmacy/contracts/client';
import { describeProblem } from '@pharmacy/contracts/plain-words';

/** A sentence a cashier can act on, from whatever a request failed with. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return `${error.detail} Check that the till is running, then try again.`;
    const sentence = describeProblem(error);
    return error.status === 403 ? `Not allowed: ${sentence}` : sentence;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}

export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  const notice = useRef<HTMLDivElement>(null);
  // A long form's notice sits above its fields: brought into view, or a refusal after Save goes unseen.
  useEffect(() => {
    if (error) notice.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  if (!error) return null;
  return (
    <div role="alert" className="notice error" ref={notice}>
      {title && <strong>{title} </strong>}
      {describeError(error)}
    </div>
  );
}
