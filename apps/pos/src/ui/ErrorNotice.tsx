import { ApiError } from '@pharmacy/contracts/client';

/** A sentence a cashier can act on, from whatever a request failed with. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return `${error.detail} Check that the till is running, then try again.`;
    if (error.status === 403) return `Not allowed: ${error.detail}`;
    return error.detail;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}

export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div role="alert" className="notice error">
      {title && <strong>{title} </strong>}
      {describeError(error)}
    </div>
  );
}
