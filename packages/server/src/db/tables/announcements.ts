import type { ChangelogKind } from '@pharmacy/contracts';

export interface ChangelogEntriesTable {
  id: string;
  title: string;
  body: string;
  version: string | null;
  kind: ChangelogKind;
  created_by: string | null;
  created_at: string;
}

export interface AnnouncementTables {
  changelog_entries: ChangelogEntriesTable;
}
