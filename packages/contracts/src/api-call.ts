import type { paths } from './api-paths';

/**
 * The client's one way to call the API, typed by the route table: `call('PUT', '/users/{userId}', { params,
 * body })` takes only a method and path template a route registers (api-paths.ts, generated from the server's
 * route declarations by `npm run gen:api-types`), that route's path parameters, query and body, and answers
 * its success response. A path, parameter, body or response that drifts from the server fails tsc.
 * Types only, but for the template filling below.
 */

/** One page of a list answer. */
export type Page<T> = { items: T[]; total: number; page: number; page_size: number };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Prefixed<P extends string> = `/api/v1${P}`;

/** Every path template (relative to /api/v1) that a route registers for `M`. */
export type PathOf<M extends Method> = {
  [K in keyof paths]: K extends Prefixed<infer P>
    ? paths[K][Lowercase<M>] extends undefined
      ? never
      : P
    : never;
}[keyof paths];

/** The generated operation of `M` on `P`. */
export type Operation<M extends Method, P extends PathOf<M>> = NonNullable<paths[Prefixed<P>][Lowercase<M>]>;

type PathParamsOf<O> = O extends { parameters: { path: infer X } } ? X : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type SuccessOf<O> = O extends { responses: infer R } ? R[keyof R & (200 | 201 | 202 | 204)] : never;
type ContentOf<R> = R extends { content: { 'application/json': infer J } }
  ? J
  : R extends { content: Record<string, infer T> }
    ? T
    : undefined;

/** The query a route takes (relative path and method), e.g. `Query<'GET', '/users'>`. */
export type Query<M extends Method, P extends PathOf<M>> = QueryOf<Operation<M, P>>;
/** The JSON body a route takes. */
export type Body<M extends Method, P extends PathOf<M>> = BodyOf<Operation<M, P>>;
/** What a route answers on success (undefined for 204). */
export type Answer<M extends Method, P extends PathOf<M>> = ContentOf<SuccessOf<Operation<M, P>>>;

type Always = { signal?: AbortSignal; timeoutMs?: number; anonymous?: boolean };
type ParamsPart<O> = [PathParamsOf<O>] extends [never] ? { params?: never } : { params: PathParamsOf<O> };
type QueryPart<O> = [QueryOf<O>] extends [never]
  ? { query?: never }
  : Record<string, never> extends QueryOf<O>
    ? { query?: QueryOf<O> }
    : { query: QueryOf<O> };
type BodyPart<O> = [BodyOf<O>] extends [never] ? { body?: never } : { body: BodyOf<O> };
export type CallOptions<O> = Always & ParamsPart<O> & QueryPart<O> & BodyPart<O>;
type CallArgs<O> =
  Record<string, never> extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

export type Call = <M extends Method, P extends PathOf<M>>(
  method: M,
  path: P,
  ...args: CallArgs<Operation<M, P>>
) => Promise<ContentOf<SuccessOf<Operation<M, P>>>>;

/** The untyped request underneath (the client's fetch, token, timeout and errors). */
export type RawRequest = <T>(
  method: string,
  path: string,
  opts?: { query?: object; body?: unknown; signal?: AbortSignal; anonymous?: boolean; timeoutMs?: number },
) => Promise<T>;

/** `{name}` of a path template, each filled with its parameter, URL-encoded. */
export function fillPath(template: string, params: Record<string, string | number> | undefined): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

export function typedCall(request: RawRequest): Call {
  return ((method: Method, path: string, options: Record<string, unknown> = {}) => {
    const { params, ...rest } = options;
    return request(method, fillPath(path, params as Record<string, string> | undefined), rest);
  }) as Call;
}
