export interface FieldError {
  path: string;
  message: string;
}

/** A failure the client can act on, mapped to application/problem+json in one place (http/problem.ts). */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export class Invalid extends AppError {
  constructor(detail: string, errors?: FieldError[], code = 'VALIDATION') {
    super(400, code, detail, errors);
  }
}

export class Unauthorized extends AppError {
  constructor(detail = 'Authentication is required: send a valid bearer token.', code = 'UNAUTHORIZED') {
    super(401, code, detail);
  }
}

export class Forbidden extends AppError {
  constructor(detail: string, code = 'FORBIDDEN') {
    super(403, code, detail);
  }
}

export class NotFound extends AppError {
  constructor(what: string, id?: string) {
    super(404, 'NOT_FOUND', id ? `${what} ${id} was not found.` : `${what} was not found.`);
  }
}

export class Conflict extends AppError {
  constructor(detail: string, code = 'CONFLICT') {
    super(409, code, detail);
  }
}

export class TooManyRequests extends AppError {
  constructor(detail: string, retryAfterSeconds: number, code = 'TOO_MANY_REQUESTS') {
    super(429, code, detail, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class ServiceUnavailable extends AppError {
  constructor(detail: string, code = 'UNAVAILABLE') {
    super(503, code, detail);
  }
}
