/** ISO-8601 UTC with milliseconds, the one time format of the API and the database. */
export const nowIso = (): string => new Date().toISOString();
