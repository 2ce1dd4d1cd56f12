import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/postgres';
import { AppError, type FieldError } from '../lib/errors';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function sendProblem(
  res: Response,
  status: number,
  code: string,
  detail: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
): void {
  if (headers) res.set(headers);
  res
    .status(status)
    .type('application/problem+json')
    .json({
      type: `urn:pharmacy:problem:${code.toLowerCase().replaceAll('_', '-')}`,
      title: TITLES[status] ?? 'Error',
      status,
      detail,
      code,
      ...(errors && errors.length > 0 ? { errors } : {}),
    });
}

export function zodFieldErrors(error: ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return { path: path || '(root)', message: issue.message };
  });
}

/** A sentence naming the first problem, so `detail` alone is useful to a person reading it. */
export function summarise(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request is invalid.';
  const more =
    errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  return first.path === '(root)' ? `${first.message}${more}.` : `${first.path}: ${first.message}${more}.`;
}

interface BodyParserError {
  type?: string;
  status?: number;
}

export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(res, 404, 'ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}.`);
};

export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof AppError) {
    sendProblem(res, err.status, err.code, err.detail, err.errors, err.headers);
    return;
  }
  if (err instanceof ZodError) {
    const errors = zodFieldErrors(err);
    sendProblem(res, 400, 'VALIDATION', summarise(errors), errors);
    return;
  }
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') {
    sendProblem(res, 400, 'MALFORMED_JSON', 'The request body is not valid JSON.');
    return;
  }
  if (parserError?.type === 'entity.too.large') {
    sendProblem(res, 413, 'BODY_TOO_LARGE', 'The request body is larger than the server accepts.');
    return;
  }
  if (parserError?.type === 'charset.unsupported' || parserError?.type === 'encoding.unsupported') {
    sendProblem(
      res,
      415,
      'UNSUPPORTED_ENCODING',
      'The request body encoding is not supported; send UTF-8 JSON.',
    );
    return;
  }
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    sendProblem(res, parserError.status, 'BAD_REQUEST', 'The request could not be read.');
    return;
  }
  if (isDatabaseUnavailable(err)) {
    req.log.warn({ err }, 'database unavailable; the client retries');
    sendProblem(
      res,
      503,
      'DATABASE_UNAVAILABLE',
      'The database is restarting or busy; nothing was written. Try again shortly.',
      undefined,
      { 'Retry-After': '2' },
    );
    return;
  }
  req.log.error({ err }, 'unhandled error');
  sendProblem(res, 500, 'INTERNAL', 'An unexpected error occurred; it has been logged.');
};
