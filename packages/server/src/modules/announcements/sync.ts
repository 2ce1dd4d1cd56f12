import { registerEntity } from '../sync/registry';

/** Release notes and organisation notices: published at head office, read on every till. */
registerEntity({
  entity: 'changelog_entry',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'changelog_entries',
  order: 430,
});
