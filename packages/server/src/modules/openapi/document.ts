import { Problem } from '@pharmacy/contracts';
import { z } from 'zod';
import type { RouteDoc } from '../../http/route';
import { VERSION } from '../../version';

type JsonSchema = Record<string, unknown>;

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return anyValueWhereAnyOfHasEmpty(rest) as JsonSchema;
};

/**
 * zod writes `unknown().nullable()` (an audit row's before/after) as anyOf [{}, {type: null}]: an empty schema
 * in anyOf already matches anything, so the whole anyOf is written as the empty schema it means.
 */
function anyValueWhereAnyOfHasEmpty(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(anyValueWhereAnyOfHasEmpty);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node as JsonSchema).map(
    ([k, v]) => [k, anyValueWhereAnyOfHasEmpty(v)] as const,
  );
  const out = Object.fromEntries(entries) as JsonSchema;
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.some((s) => s && typeof s === 'object' && Object.keys(s).length === 0)) {
    const { anyOf: _drop, ...rest } = out;
    return rest;
  }
  return out;
}

const openApiPath = (path: string) => `/api/v1${path.replace(/:(\w+)/g, '{$1}')}`;

function parameters(doc: RouteDoc) {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', doc.params],
    ['query', doc.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: prop,
        ...(typeof prop.description === 'string' && { description: prop.description }),
      });
    }
  }
  return out;
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

function responses(doc: RouteDoc) {
  const out: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(doc.responses)) {
    const code = Number(status);
    if (code >= 400) out[status] = problemResponse(r.description);
    else if (!r.schema) out[status] = { description: r.description };
    else
      out[status] = {
        description: r.description,
        content: { [r.contentType ?? 'application/json']: { schema: toSchema(r.schema, 'output') } },
      };
  }
  const hasInput = doc.body || doc.query || doc.params;
  if (hasInput && !out['400']) out['400'] = problemResponse('Invalid input: see detail and errors');
  if (doc.access !== 'public') {
    out['401'] ??= problemResponse('Missing, invalid, expired or revoked token');
    if (doc.access !== 'any') out['403'] ??= problemResponse('Role or branch not allowed');
  }
  return out;
}

/** The OpenAPI 3.1 document, built from the same route declarations that validate and authorise requests. */
export function buildOpenApi(docs: RouteDoc[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs) {
    const roles =
      doc.access === 'public'
        ? 'public'
        : doc.access === 'any'
          ? 'any signed-in user'
          : ['admin', ...doc.access].join(', ');
    const operation = {
      tags: [doc.tag],
      summary: doc.summary,
      description: [doc.description, `Access: ${roles}.`].filter(Boolean).join('\n\n'),
      operationId: `${doc.method}${openApiPath(doc.path).replace(/[^a-zA-Z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      'x-roles': doc.access,
      security: doc.access === 'public' ? [] : [{ bearerAuth: [] }],
      parameters: parameters(doc),
      ...(doc.body && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: toSchema(doc.body, 'input') } },
        },
      }),
      responses: responses(doc),
    };
    const path = openApiPath(doc.path);
    paths[path] = { ...paths[path], [doc.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pharmacy till API',
      version: VERSION,
      license: {
        name: 'Proprietary: licensed to the pharmacy chain that runs it',
        identifier: 'LicenseRef-Proprietary',
      },
      description:
        'Point of sale, inventory and back office for pharmacy chains. Money in requests is a number, in responses a decimal string. Errors are application/problem+json with type, title, status, detail, code and, for validation, errors[{path, message}]. Lists answer {items, total, page, page_size} with page_size at most 200 unless a route says otherwise. IDs are UUIDv7; times are ISO-8601 UTC.',
    },
    servers: [{ url: '/' }],
    paths: {
      '/health': {
        get: {
          tags: ['Health'],
          summary: 'Service and database health (public, unversioned)',
          operationId: 'getHealth',
          security: [],
          responses: {
            200: { description: 'Healthy' },
            503: { description: 'The database does not answer' },
          },
        },
      },
      ...paths,
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Problem: toSchema(Problem, 'output') },
    },
  };
}
