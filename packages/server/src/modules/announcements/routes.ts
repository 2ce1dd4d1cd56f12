import {
  AcknowledgeNoticeRequest,
  ChangelogEntry,
  ChangelogListQuery,
  CounterNotices,
  CreateChangelogRequest,
  pageOf,
} from '@pharmacy/contracts';
import { type ApiRouter, created, noContent } from '../../http/route';
import { actorOf } from '../audit/service';
import { acknowledgeNotice, counterNotices } from './notices';
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

  r.route({
    method: 'get',
    path: '/notices',
    tag: 'Ops',
    summary: 'What the counter shows until acknowledged: announcements and recalls',
    description:
      "Any signed-in user: head office's announcements (changelog kind announcement) and recalls of batches the caller's branch still holds, that the caller has not acknowledged; recalls first, then newest first, at most 5 of each. A recalled batch is never sold (sales take only active batches).",
    roles: 'any',
    responses: { 200: { description: 'The notices to show', schema: CounterNotices } },
    handler: ({ app, user }) => counterNotices(app, user),
  });

  r.route({
    method: 'post',
    path: '/notices/acknowledge',
    tag: 'Ops',
    summary: 'Acknowledge an announcement or a recall',
    description:
      "kind (announcement or recall) and id (the announcement, or the recalled batch of the caller's branch: 404 otherwise). It no longer shows for the caller at this till; others still see it. Acknowledging twice is harmless.",
    roles: 'any',
    body: AcknowledgeNoticeRequest,
    responses: {
      204: { description: 'Acknowledged' },
      404: { description: 'Unknown announcement or batch' },
    },
    handler: async ({ app, user, body }) => {
      await acknowledgeNotice(app, user, body);
      return noContent();
    },
  });
}
