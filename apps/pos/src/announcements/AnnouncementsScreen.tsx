import type { ChangelogKind } from '@pharmacy/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { RoleButton } from '../ui/RoleButton';
import { Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextAreaField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useOrgDateTime } from '../ui/org-time';
import { useSaveThenClose } from '../ui/useSaveThenClose';

const KIND_LABELS: Record<ChangelogKind, string> = {
  announcement: 'Announcement',
  release: 'Release',
  feature: 'New feature',
  fix: 'Fix',
  organisation: 'Organisation change',
};
const KINDS = Object.keys(KIND_LABELS) as ChangelogKind[];
const PAGE_SIZE = 20;

/** The announcements and release notes every till shows; the admin writes and publishes them. */
export function AnnouncementsScreen() {
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(1);
  const [writing, setWriting] = useState(false);
  const query = { kind: (kind || undefined) as ChangelogKind | undefined, page, page_size: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['changelog', query],
    queryFn: () => api.changelog.list(query),
    placeholderData: keepPreviousData,
  });
  const when = useOrgDateTime();
  return (
    <section aria-labelledby="announcements-title">
      <div className="screen-header">
        <h1 id="announcements-title">Announcements</h1>
        <RoleButton
          roles={[]}
          action="publish announcements"
          className="primary"
          onClick={() => setWriting(true)}
        >
          New announcement
        </RoleButton>
      </div>
      <search className="filters">
        <SelectField
          label="Kind"
          value={kind}
          onChange={(v) => {
            setKind(v);
            setPage(1);
          }}
          options={[
            { value: '', label: 'Every kind' },
            ...KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] })),
          ]}
        />
      </search>
      <ErrorNotice error={list.error} />
      <ol className="announcements" aria-label="Published entries">
        {list.data?.items.map((e) => (
          <li key={e.id} className="card">
            <article aria-labelledby={`entry-${e.id}`}>
              <h2 id={`entry-${e.id}`}>{e.title}</h2>
              <p className="muted">
                {KIND_LABELS[e.kind]}
                {e.version ? ` · version ${e.version}` : ''} · {when(e.created_at)}
                {e.created_by_name ? ` · ${e.created_by_name}` : ''}
              </p>
              {e.body && <p className="announcement-body">{e.body}</p>}
            </article>
          </li>
        ))}
      </ol>
      {list.data && list.data.items.length === 0 && <p>Nothing published yet.</p>}
      <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.total} noun="entries" onPage={setPage} />
      {writing && <PublishDialog onClose={() => setWriting(false)} />}
    </section>
  );
}

function PublishDialog({ onClose }: { onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [version, setVersion] = useState('');
  const [kind, setKind] = useState<ChangelogKind>('announcement');
  const publish = useSaveThenClose({
    save: () => api.changelog.create({ title, body, kind, version: version.trim() || null }),
    invalidates: [['changelog']],
    onClose,
  });
  const err = publish.error;
  return (
    <FormDialog
      title="New announcement"
      onClose={onClose}
      onSubmit={() => publish.mutate()}
      error={err}
      pending={publish.isPending}
      submitLabel="Publish"
    >
      <SelectField
        label="Kind"
        value={kind}
        onChange={(v) => setKind(v as ChangelogKind)}
        options={KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
      />
      <TextField
        label="Title"
        value={title}
        onChange={setTitle}
        error={fieldError(err, 'title')}
        data-autofocus=""
      />
      <TextAreaField
        label="Text"
        value={body}
        onChange={setBody}
        error={fieldError(err, 'body')}
        rows={6}
        maxLength={20_000}
      />
      <TextField
        label="Version (release notes)"
        value={version}
        onChange={setVersion}
        error={fieldError(err, 'version')}
        hint="Such as 1.4.0; empty for an announcement"
      />
      <p className="muted">Published entries go to every till and cannot be edited afterwards.</p>
    </FormDialog>
  );
}
