import type { Category } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';

/** The catalogue's categories: add, rename, remove (the server refuses removing one that files medicines). */
export function CategoriesDialog({ canEdit, onClose }: { canEdit: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const categories = useQuery({ queryKey: ['categories'], queryFn: () => api.categories.list() });
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ slug: string; name: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['categories'] });
  const create = useMutation({
    mutationFn: () => api.categories.create({ name }),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const rename = useMutation({
    mutationFn: (r: { slug: string; name: string }) => api.categories.update(r.slug, { name: r.name }),
    onSuccess: () => {
      setRenaming(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (c: Category) => api.categories.remove(c.slug),
    onSuccess: refresh,
  });
  return (
    <Dialog title="Categories" onClose={onClose}>
      <ErrorNotice error={rename.error ?? remove.error} />
      <table aria-label="Categories">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Slug</th>
            <th scope="col" className="num">
              Medicines
            </th>
            {canEdit && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {categories.data?.items.map((c) => (
            <tr key={c.id}>
              <td>
                {renaming?.slug === c.slug ? (
                  <form
                    onSubmit={(e) => {
                      e.preventDefault();
                      rename.mutate(renaming);
                    }}
                  >
                    <TextField
                      label={`New name of ${c.name}`}
                      value={renaming.name}
                      onChange={(v) => setRenaming({ slug: c.slug, name: v })}
                      error={fieldError(rename.error, 'name')}
                    />
                  </form>
                ) : (
                  c.name
                )}
              </td>
              <td>{c.slug}</td>
              <td className="num">{c.medicine_count}</td>
              {canEdit && (
                <td className="actions">
                  <button type="button" onClick={() => setRenaming({ slug: c.slug, name: c.name })}>
                    Rename
                  </button>
                  <button type="button" aria-label={`Remove ${c.name}`} onClick={() => remove.mutate(c)}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {canEdit && (
        <form
          className="filters"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
          noValidate
        >
          <TextField
            label="New category"
            value={name}
            onChange={setName}
            error={fieldError(create.error, 'name')}
          />
          <button type="submit" className="primary" disabled={create.isPending}>
            Add category
          </button>
          <ErrorNotice error={create.error && !fieldError(create.error, 'name') ? create.error : null} />
        </form>
      )}
    </Dialog>
  );
}
