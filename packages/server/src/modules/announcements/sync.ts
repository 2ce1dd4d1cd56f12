import type { EntityRegistration } from '../sync/registry';

/** Release notes and organisation notices: published at head office, read on every till. */
const changelogEntryEntity: EntityRegistration = {
  entity: 'changelog_entry',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Announcements',
  rest: [{ method: 'post', path: '/changelog' }],
  table: 'changelog_entries',
  order: 430,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const announcementsEntities: readonly EntityRegistration[] = [changelogEntryEntity];
