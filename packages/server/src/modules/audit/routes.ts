import { AuditEntry, AuditListQuery, Id, pageOf } from '@pharmacy/contracts';
import { OVERSEERS } from '@pharmacy/contracts/roles';
import { z } from 'zod';
import { assertBranchAccess, scopeBranch } from '../../http/auth';
import type { ApiRouter } from '../../http/route';
import { getAudit, listAudit } from './service';

const READERS = OVERSEERS;

export function auditRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/audit',
    tag: 'Audit',
    summary: 'List the audit trail, newest first',
    description:
      'Admin and auditor see every branch; a branch manager sees only entries of their own branch.',
    roles: READERS,
    query: AuditListQuery,
    responses: { 200: { description: 'A page of audit entries', schema: pageOf(AuditEntry) } },
    handler: ({ app, user, query }) =>
      listAudit(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'get',
    path: '/audit/:auditId',
    tag: 'Audit',
    summary: 'Read one audit entry',
    roles: READERS,
    params: z.object({ auditId: Id }),
    responses: { 200: { description: 'The audit entry', schema: AuditEntry } },
    handler: async ({ app, user, params }) => {
      const entry = await getAudit(app, params.auditId);
      if (user.role === 'branch_manager') assertBranchAccess(user, entry.branch_id ?? '', 'audit entry');
      return entry;
    },
  });
}
