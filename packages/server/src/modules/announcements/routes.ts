import { ChangelogEntry, ChangelogListQuery, CreateChangelogRequest, pageOf } from '@pharmacy/contracts';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { createChangelogEntry, listChangelog } from './service';

/**
 * Announcements (the spec's "changelog", GET/POST /changelog): notes head office posts to every till. Not the
 * sync change log, which is db/changes.ts and the change_log table.
 */
export function announcementRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/changelog',
    tag: 'Ops',
    summary: 'Release notes and organisation changes, newest first',
    description:
      'Optional kind (release, feature, fix, organisation, announcement); paged. Any signed-in user.',
    roles: 'any',
    query: ChangelogListQuery,
    responses: { 200: { description: 'A page of entries', schema: pageOf(ChangelogEntry) } },
    handler: ({ app, query }) => listChangelog(app, query),
  });

  r.route({
    method: 'post',
    path: '/changelog',
    tag: 'Ops',
    summary: 'Publish a changelog entry',
    description:
      'title (required), body, version (such as 1.4.0, optional), kind (default release). Admin only. Entries are immutable once published (no update or delete route), replicated to every till and audited.',
    roles: [],
    body: CreateChangelogRequest,
    responses: { 201: { description: 'The entry', schema: ChangelogEntry } },
    handler: async ({ app, user, body, requestId }) =>
      created(await createChangelogEntry(app, user, actorOf(user, requestId), body)),
  });
}
