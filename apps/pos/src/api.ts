import { type ApiError, createApiClient } from '@pharmacy/contracts/client';
import { currentToken } from './token-store';

type UnauthorizedListener = (error: ApiError) => void;
const listeners = new Set<UnauthorizedListener>();

/** Every call of the UI goes through this client: same origin, bearer token from the session. */
export const api = createApiClient({
  getToken: currentToken,
  onUnauthorized: (error) => {
    for (const listener of listeners) listener(error);
  },
});

export function onUnauthorized(listener: UnauthorizedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
