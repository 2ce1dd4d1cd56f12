import { actAtCentral, RegisterError } from '@pharmacy/sync';
import type { AppContext } from '../../app-context';
import { AppError, Conflict, type FieldError, ServiceUnavailable } from '../../lib/errors';
import { type ApiRouter, type Diversion, Reply } from '../../http/route';
import { centralTokenFor, forgetCentralSession } from './central-session';
import {
  centralWriteRoutes,
  type EntityDefinition,
  getEntity,
  type RestRoute,
  writtenAtCentral,
} from './registry';
import { connectedCentral, tillReplicator } from './runtime';

/**
 * Issue 28.1: every replicated entity has one owner (registry.ts). On a till connected to head office, a REST
 * write of an entity head office writes (writtenAtCentral: coupons, the catalogue, suppliers, supplier finance,
 * settings, users…) is made at head office, as the signed-in person, and pulled back before the answer; when
 * head office does not answer it is refused in words. The routes come from the registry's `rest` lists, so a
 * route declared there cannot be written locally by mistake. A till that is not connected writes them itself.
 */
export function divertCentralWrites(r: ApiRouter): void {
  for (const { route, entities } of centralWriteRoutes().values()) {
    // A route writing several (a supplier payment and its invoice) is told by its most specific: fewest routes.
    const told = entities.reduce((a, b) => (b.rest.length < a.rest.length ? b : a));
    r.divert(route.method, route.path, writeAtCentral(route, told));
    describe(r, route);
  }
  r.checkLocalChanges((app) =>
    connectedCentral(app) ? (entity) => refuseCentralWrite(app, entity) : undefined,
  );
}

/**
 * The last line on a connected till: any other write (a route not declared in the registry, a side effect of
 * a till's own operation) that would record a change of an entity head office writes, and that the till would
 * push, is refused whole. A change the till never sends (keptAtTill: a user row) is its own business.
 */
export function refuseCentralWrite(app: AppContext, entity: string): void {
  const def = getEntity(entity);
  if (def && writtenAtCentral(def) && !def.keptAtTill && connectedCentral(app))
    throw new Conflict(
      `${def.label} are managed by head office; this till does not change them while it is connected.`,
      'CENTRAL_OWNED',
    );
}

/** The route's OpenAPI description says what a connected till does with it. */
function describe(r: ApiRouter, route: RestRoute): void {
  const doc = r.docs.find((d) => d.method === route.method && d.path === route.path);
  if (!doc) return;
  const refused = route.atConnectedTill === 'refused';
  const note = refused
    ? 'On a till connected to head office: refused, 409 CENTRAL_OWNED (made at head office only).'
    : "On a till connected to head office: made at head office as the signed-in person (head office's answer and refusals as it gives them) and pulled to the till before the answer; 503 TILL_OFFLINE when head office does not answer, 503 CENTRAL_SIGN_IN_NEEDED when the till holds no head office sign-in for the session.";
  doc.description = doc.description ? `${doc.description} ${note}` : note;
  doc.responses[refused ? 409 : 503] ??= {
    description: refused ? 'Made at head office only' : 'Head office did not answer, or no sign-in there',
  };
}

/** How long a forwarded write waits for the pull that brings its record to this till. */
const PULL_WAIT_MS = 5_000;

function writeAtCentral(route: RestRoute, entity: EntityDefinition): Diversion {
  return async ({ app, req, user, mountPath }) => {
    const central = connectedCentral(app);
    if (!central) return undefined;
    const managed = `${entity.label} are managed by head office`;
    if (route.atConnectedTill === 'refused')
      throw new Conflict(`${managed}; make this change in head office's back office.`, 'CENTRAL_OWNED');
    const offline = new ServiceUnavailable(
      `${managed}; this till is offline — try again when it is connected.`,
      'TILL_OFFLINE',
    );
    try {
      const token = await centralTokenFor(app, user);
      if (!token) throw await signInAgain(central, managed);
      const answer = await actAtCentral(central, token, {
        method: req.method,
        path: req.originalUrl.slice(mountPath.length),
        body: req.body,
      });
      if (answer.status === 401) {
        forgetCentralSession(app, user.sessionId);
        throw await signInAgain(central, managed);
      }
      if (answer.status >= 400) throw centralRefusal(answer);
      await pulled(app);
      return new Reply(answer.status, answer.status === 204 ? undefined : answer.body);
    } catch (err) {
      if (err instanceof RegisterError) throw offline;
      throw err;
    }
  };
}

/**
 * No sign-in at head office for this session (the person signed in here while head office did not answer, or
 * head office ended it): the person signs in again, unless head office does not answer now (RegisterError,
 * told as offline), which a call without a token finds out without changing anything.
 */
async function signInAgain(central: string, managed: string): Promise<AppError> {
  await actAtCentral(central, '', { method: 'GET', path: '/auth/me' });
  return new ServiceUnavailable(
    `${managed}, and head office has not accepted your sign-in from this till; sign out and sign in again, then repeat the change.`,
    'CENTRAL_SIGN_IN_NEEDED',
  );
}

/** Head office's refusal as this till's answer: its status, code, words and fields. */
function centralRefusal(answer: { status: number; body: Record<string, unknown> }): AppError {
  const { code, detail, errors } = answer.body as { code?: unknown; detail?: unknown; errors?: unknown };
  const words = typeof detail === 'string' && detail ? detail : 'Head office refused the change.';
  if (answer.status >= 500)
    return new AppError(502, 'CENTRAL_FAILED', `Head office could not make the change: ${words}`);
  return new AppError(
    answer.status,
    typeof code === 'string' ? code : 'CENTRAL_REFUSED',
    words,
    Array.isArray(errors) ? (errors as FieldError[]) : undefined,
  );
}

/** Pulls now, so the record head office made is at this till when the answer returns (bounded wait). */
async function pulled(app: AppContext): Promise<void> {
  const replicator = tillReplicator(app);
  if (!replicator) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    replicator.syncNow().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, PULL_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}
