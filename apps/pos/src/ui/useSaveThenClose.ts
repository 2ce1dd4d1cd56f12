import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A dialog's save: runs `save`, and once it succeeded refreshes the lists it changed (`invalidates`) and closes
 * the dialog. A failed save leaves the dialog open with the error on the mutation, for FormDialog to show.
 */
export function useSaveThenClose<TData, TVariables = void>({
  save,
  invalidates,
  onClose,
}: {
  save: (variables: TVariables) => Promise<TData>;
  invalidates: readonly QueryKey[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => {
      for (const queryKey of invalidates) queryClient.invalidateQueries({ queryKey });
      onClose();
    },
  });
}
