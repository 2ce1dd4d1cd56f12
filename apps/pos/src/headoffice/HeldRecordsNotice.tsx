import type { HeldRecords, HeldRecordsArchive } from '@pharmacy/contracts';
import type { UseMutationResult } from '@tanstack/react-query';
import { ErrorNotice } from '../ui/ErrorNotice';
import { heldText } from './sync-text';

/**
 * Before a till that has sold connects (issue 28.2): what it holds and what connecting does with it. Records
 * of a branch (made while disconnected) are sent to head office as that branch's; records made before the
 * till ever held head office's data are archived first (a copy of its database), never silently dropped.
 */
export function HeldRecordsNotice({
  held,
  branchName,
  archive,
}: {
  held: HeldRecords;
  /** The name of the branch the records belong to, when head office listed it. */
  branchName: string | undefined;
  archive: UseMutationResult<HeldRecordsArchive, Error, void>;
}) {
  return (
    <section aria-labelledby="held-title" className="notice info">
      <h3 id="held-title">{archive.data && held.total === 0 ? 'Records archived' : 'This till has sold'}</h3>
      {held.open_session && (
        <p>
          A cash session is open on this till. Close it (Cash session → Close, with its Z report) before
          connecting.
        </p>
      )}
      {held.total > 0 && held.branch_id !== null && (
        <p>
          This till holds {heldText(held)} made while it was not connected. They will be sent to head office
          as sales of {branchName ?? 'the branch this till belonged to'}: choose that branch as this till's
          Branch.
        </p>
      )}
      {held.total > 0 && held.branch_id === null && (
        <>
          <p>
            This till holds {heldText(held)} made before it was connected, against its own catalogue and
            staff, which head office does not know: they cannot be sent to head office as they are. Archive
            them first: a copy of this till's whole database is kept in its data folder, then head office's
            data replaces them on this till.
          </p>
          <ErrorNotice error={archive.error} />
          <div className="toolbar">
            <button type="button" onClick={() => archive.mutate()} disabled={archive.isPending}>
              {archive.isPending ? 'Archiving…' : "Archive this till's records"}
            </button>
          </div>
        </>
      )}
      {archive.data && (
        <p role="status">
          Archived {heldText(archive.data.archived)} to {archive.data.file}.
        </p>
      )}
    </section>
  );
}
