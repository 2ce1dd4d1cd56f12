import { callCentral, normaliseCentralUrl } from './register';

/**
 * A connected till acting for a person at head office with their own password: a sign-in for an account the
 * till holds no password verifier for (head office serves verifiers only for the branch's own staff), and a
 * password change, which is made at head office and never sent as a hash from a till.
 * Both throw RegisterError CENTRAL_UNREACHABLE when head office does not answer.
 */
export type CentralAnswer =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: number; body: Record<string, unknown> };

const json = { 'content-type': 'application/json' };

async function answer(
  centralUrl: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<CentralAnswer> {
  const res = await callCentral(normaliseCentralUrl(centralUrl), path, {
    method: 'POST',
    headers: token ? { ...json, authorization: `Bearer ${token}` } : json,
    body: JSON.stringify(body),
    timeoutMs: 10_000,
  });
  return res.status === 200
    ? { ok: true, body: res.body }
    : { ok: false, status: res.status, body: res.body };
}

/** Signs the person in at head office: central's own answer (200 with user_id, or its refusal). */
export const signInAtCentral = (
  centralUrl: string,
  email: string,
  password: string,
): Promise<CentralAnswer> => answer(centralUrl, '/auth/login', { email, password });

/**
 * Changes the person's password at head office: signs in with the current password, then POST
 * /auth/change-password there. Answers central's refusal as it is (wrong password, a weak new one...).
 */
export async function changePasswordAtCentral(
  centralUrl: string,
  input: { email: string; current_password: string; new_password: string },
): Promise<CentralAnswer> {
  const signIn = await signInAtCentral(centralUrl, input.email, input.current_password);
  if (!signIn.ok) return signIn;
  const token = String(signIn.body.access_token ?? '');
  return answer(
    centralUrl,
    '/auth/change-password',
    { current_password: input.current_password, new_password: input.new_password },
    token,
  );
}

/**
 * A connected till's REST write of a record head office owns, made at head office as the signed-in person
 * (their head office token): central's status and body as it answered them. `path` is under /api/v1, with
 * its query. Throws RegisterError CENTRAL_UNREACHABLE when head office does not answer.
 */
export async function actAtCentral(
  centralUrl: string,
  token: string,
  request: { method: string; path: string; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const hasBody = request.body !== undefined && request.method !== 'GET' && request.method !== 'DELETE';
  return callCentral(normaliseCentralUrl(centralUrl), request.path, {
    method: request.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(hasBody && { 'content-type': 'application/json' }),
    },
    ...(hasBody && { body: JSON.stringify(request.body) }),
    timeoutMs: 15_000,
  });
}

/** A fresh head office token of the person's session there (POST /auth/refresh): central's answer. */
export const refreshAtCentral = (centralUrl: string, token: string): Promise<CentralAnswer> =>
  answer(centralUrl, '/auth/refresh', {}, token);
