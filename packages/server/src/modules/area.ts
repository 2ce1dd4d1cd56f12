import type { PrintDocumentType } from '@pharmacy/contracts';
import type { ApiRouter } from '../http/route';
import type { DocumentSource } from './printing/sources';
import type { EntityRegistration } from './sync/registry';

/**
 * What one feature area brings to the server, listed once in modules/index.ts: its routes, the
 * entities it replicates (its `sync.ts`) and the documents it prints (its `documents.ts`). An area's
 * tables are in db/tables/<area>.ts, its authorisation rows in its `authz.ts`, its tests beside it.
 */
export interface Area {
  name: string;
  routes?: (r: ApiRouter) => void;
  entities?: readonly EntityRegistration[];
  documents?: Partial<Record<PrintDocumentType, DocumentSource>>;
}
