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
  notice_acknowledgements: NoticeAcknowledgementsTable;
}

/** An announcement or recall a person acknowledged at this till (local: not replicated). */
export interface NoticeAcknowledgementsTable {
  user_id: string;
  notice_kind: 'announcement' | 'recall';
  notice_id: string;
  acknowledged_at: string;
}
