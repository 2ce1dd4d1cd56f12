import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pinnedLookup, resolveCheckedHost } from '@pharmacy/contracts/net-address';
import type { DeviceCredential } from './credential';

/**
 * Why registering with central failed, in words a pharmacist can act on. `field` names the form field to fix
 * (central_url, email, password, branch_id); `code` is stable for callers and tests.
 */
/** Central's detail without its closing full stop, to quote inside a sentence of ours. */
const quote = (detail: unknown, fallback: string) =>
  (typeof detail === 'string' && detail ? detail : fallback).replace(/[.\s]+$/, '');

export class RegisterError extends Error {
  constructor(
    readonly code:
      | 'CENTRAL_UNREACHABLE'
      | 'NOT_CENTRAL'
      | 'BAD_URL'
      | 'LOGIN_FAILED'
      | 'PASSWORD_CHANGE_REQUIRED'
      | 'NOT_ALLOWED'
      | 'REGISTRATION_FAILED',
    message: string,
    readonly field?: 'central_url' | 'email' | 'password' | 'branch_id',
  ) {
    super(message);
  }
}

export interface CentralSignIn {
  centralUrl: string;
  email: string;
  password: string;
  timeoutMs?: number;
}

export interface CentralBranch {
  id: string;
  name: string;
  code: string;
}

/** The URL as typed, checked: http(s) with a host, nothing after the origin but an optional path. */
export function normaliseCentralUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new RegisterError(
      'BAD_URL',
      'The head office address must be a web address such as http://hq.example:8000.',
      'central_url',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RegisterError(
      'BAD_URL',
      'The head office address must start with http:// or https://.',
      'central_url',
    );
  if (url.username || url.password)
    throw new RegisterError(
      'BAD_URL',
      'The head office address must not contain a user name or password.',
      'central_url',
    );
  return url.origin;
}

/**
 * Every way a head office may fail to answer, told the same way (issue 26 M3): a closed port, a service that
 * is not a pharmacy head office and a refused address must not be told apart, or the connect form is a port
 * scanner.
 */
export const NO_HEAD_OFFICE =
  "No head office answered at that address. Check the address and this till's network, then try again.";

const unreachable = () => new RegisterError('CENTRAL_UNREACHABLE', NO_HEAD_OFFICE, 'central_url');

/** The most of an answer read: a head office's answers here are small JSON documents. */
const MAX_ANSWER_BYTES = 1_000_000;

/**
 * One request to head office over http(s), to an address checked by the same rule as printers
 * (contracts/net-address.ts: never link-local, metadata or multicast, after DNS) and connected to only at
 * the checked addresses. Answers central's status and JSON body; anything else is NO_HEAD_OFFICE.
 */
export async function callCentral(
  centralUrl: string,
  path: string,
  init: { method: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(`/api/v1${path}`, centralUrl);
  let answer: { status: number; text: string };
  try {
    const addresses = await resolveCheckedHost(url.hostname);
    answer = await send(url, init, pinnedLookup(addresses));
  } catch {
    throw unreachable();
  }
  if (answer.status === 204) return { status: 204, body: {} };
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const isProblem = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (!isProblem || (answer.status === 404 && !(body as { code?: unknown }).code)) throw unreachable();
  return { status: answer.status, body: body as Record<string, unknown> };
}

function send(
  url: URL,
  init: { method: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
  lookup: LookupFunction,
): Promise<{ status: number; text: string }> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: init.method, headers: init.headers, lookup, timeout: init.timeoutMs ?? 15_000 },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Signs in to central as the person setting up the till; answers the bearer token. */
export async function signInToCentral(input: CentralSignIn): Promise<string> {
  const centralUrl = normaliseCentralUrl(input.centralUrl);
  const health = await callCentral(centralUrl, '/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: input.email, password: input.password }),
    ...(input.timeoutMs && { timeoutMs: input.timeoutMs }),
  });
  const body = health.body as { access_token?: string; detail?: string; must_change_password?: boolean };
  if (health.status === 401 || health.status === 400 || health.status === 403)
    throw new RegisterError(
      'LOGIN_FAILED',
      `Head office refused the sign-in: ${quote(body.detail, 'wrong email or password')}.`,
      'password',
    );
  if (health.status === 429)
    throw new RegisterError(
      'LOGIN_FAILED',
      `Head office: ${quote(body.detail, 'too many attempts, wait and try again')}.`,
      'password',
    );
  if (health.status !== 200 || !body.access_token) throw unreachable();
  if (body.must_change_password)
    throw new RegisterError(
      'PASSWORD_CHANGE_REQUIRED',
      `${input.email} still has a password someone else set: sign in to head office (${centralUrl}) once and choose a new one, then connect with it.`,
      'password',
    );
  return body.access_token;
}

/** The branches the signed-in person may register a till for (a branch manager sees their own). */
export async function centralBranches(input: CentralSignIn): Promise<CentralBranch[]> {
  const centralUrl = normaliseCentralUrl(input.centralUrl);
  const token = await signInToCentral(input);
  const res = await callCentral(centralUrl, '/branches?page_size=200', {
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200)
    throw new RegisterError(
      'NOT_ALLOWED',
      `Head office would not list branches: ${String(res.body.detail ?? res.status)}`,
    );
  const items = (res.body.items ?? []) as Array<{
    id: string;
    name: string;
    code: string;
    is_active?: boolean;
  }>;
  return items.filter((b) => b.is_active !== false).map((b) => ({ id: b.id, name: b.name, code: b.code }));
}

export interface RegisterInput extends CentralSignIn {
  name: string;
  branchId?: string;
}

/**
 * Registers this till with central (POST /sync/devices/register as the signed-in person) and answers the
 * device credential to store. Used by `npm run till:register` and by the till's Head office screen.
 */
export async function registerWithCentral(input: RegisterInput): Promise<DeviceCredential> {
  const centralUrl = normaliseCentralUrl(input.centralUrl);
  const token = await signInToCentral(input);
  const res = await callCentral(centralUrl, '/sync/devices/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: input.name, ...(input.branchId && { branch_id: input.branchId }) }),
  });
  const body = res.body as {
    device_id?: string;
    device_token?: string;
    device?: { branch_id: string };
    detail?: string;
    code?: string;
  };
  if (res.status === 403)
    throw new RegisterError(
      'NOT_ALLOWED',
      `Head office: ${quote(body.detail, 'this account may not register tills')}.`,
      'email',
    );
  if (res.status === 404)
    throw new RegisterError(
      'REGISTRATION_FAILED',
      `Head office: ${quote(body.detail, 'unknown branch')}.`,
      'branch_id',
    );
  if (res.status === 409)
    throw new RegisterError(
      'NOT_CENTRAL',
      `${centralUrl} is a till, not the head office server.`,
      'central_url',
    );
  if (res.status !== 201 || !body.device_id || !body.device_token || !body.device)
    throw new RegisterError(
      'REGISTRATION_FAILED',
      `Head office did not register the till (HTTP ${res.status}): ${body.detail ?? JSON.stringify(body)}`,
    );
  return {
    central_url: centralUrl,
    device_id: body.device_id,
    device_token: body.device_token,
    branch_id: body.device.branch_id,
    name: input.name,
    registered_at: new Date().toISOString(),
  };
}
