import { v7 } from 'uuid';

/** Time-ordered UUIDv7: created by whoever creates the record, a till offline or central. */
export const newId = (): string => v7();
