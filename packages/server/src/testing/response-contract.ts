import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Json = Record<string, unknown>;
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

/**
 * Holds every answer an HTTP test receives to the schema its route declares in the OpenAPI document (the
 * document outside tools and clients rely on): a field the schema does not allow, a missing required field
 * or a wrong type fails the test that received it. Answers without a declared schema (CSV, HTML, 204) pass.
 */
export class ResponseContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction | null>();
  private readonly templates: Array<{ pattern: RegExp; path: string }>;

  constructor(private readonly doc: OpenApiDocument) {
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literal: path.replace(/\{[^}]+\}/g, '').length,
      }))
      // A literal segment wins over a parameter: /medicines/barcode/{code} before /medicines/{id}/movements.
      .sort((a, b) => b.literal - a.literal);
  }

  /** The problem with an answer, or null when it fits its declared schema (or none is declared). */
  check(method: string, url: string, status: number, contentType: string, body: unknown): string | null {
    const path = new URL(url, 'http://x').pathname;
    const template = this.templates.find((t) => t.pattern.test(path))?.path;
    if (!template) return null;
    const validate = this.validator(template, method.toLowerCase(), status, contentType);
    if (!validate || validate(body)) return null;
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map(
        (e) =>
          `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
    return `${method} ${template} answered ${status} with a body its declared schema refuses: ${errors.join('; ')}`;
  }

  private validator(template: string, method: string, status: number, contentType: string) {
    if (!contentType.includes('json')) return null;
    const media = contentType.includes('problem+json') ? 'application/problem+json' : 'application/json';
    const key = `${method} ${template} ${status} ${media}`;
    if (!this.compiled.has(key)) {
      const schema =
        this.doc.paths[template]?.[method]?.responses?.[String(status)]?.content?.[media]?.schema;
      this.compiled.set(key, schema ? this.ajv.compile(this.resolve(schema)) : null);
    }
    return this.compiled.get(key) ?? null;
  }

  private resolve(schema: Json): Json {
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      return this.doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)] ?? {};
    }
    return schema;
  }
}
