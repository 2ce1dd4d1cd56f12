import { z } from 'zod';
import { OptionalText, PageQuery, Text, Timestamp } from './common';

export const CHANGELOG_KINDS = ['release', 'feature', 'fix', 'organisation', 'announcement'] as const;
export const ChangelogKind = z.enum(CHANGELOG_KINDS);
export type ChangelogKind = z.infer<typeof ChangelogKind>;

export const ChangelogEntry = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  version: z.string().nullable(),
  kind: ChangelogKind,
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: Timestamp,
});

export const CreateChangelogRequest = z
  .object({
    title: Text(200),
    body: OptionalText(20_000).default(''),
    version: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$/, { message: 'must be a version such as 1.4.0' })
      .nullable()
      .default(null),
    kind: ChangelogKind.default('release'),
  })
  .strict();

export const ChangelogListQuery = PageQuery.extend({ kind: ChangelogKind.optional() });

/** What the counter shows until its user acknowledges it: an announcement, or a recall of a batch it holds. */
export const NOTICE_KINDS = ['announcement', 'recall'] as const;
export const NoticeKind = z.enum(NOTICE_KINDS, { message: 'must be announcement or recall' });

export const CounterNotice = z.object({
  kind: NoticeKind,
  id: z.string().describe('the announcement, or the recalled batch'),
  title: z.string(),
  body: z.string(),
  at: Timestamp.describe('when it was published or recalled'),
});
export type CounterNotice = z.infer<typeof CounterNotice>;

export const CounterNotices = z.object({ items: z.array(CounterNotice) });

export const AcknowledgeNoticeRequest = z
  .object({ kind: NoticeKind, id: z.string().trim().min(1, { message: 'is required' }).max(200) })
  .strict();
