import { useCallback, useState } from 'react';

/**
 * Whether any request started through `whileSubmitting` is still open: the team screens disable
 * Start, Reset and the checkpoint buttons while one is. A count rather than a flag, so two
 * overlapping requests cannot clear each other's state.
 */
export function useSubmitting(): {
  isSubmitting: boolean;
  whileSubmitting: <T>(work: () => Promise<T>) => Promise<T>;
} {
  const [open, setOpen] = useState(0);
  const whileSubmitting = useCallback(async <T>(work: () => Promise<T>): Promise<T> => {
    setOpen((n) => n + 1);
    try {
      return await work();
    } finally {
      setOpen((n) => n - 1);
    }
  }, []);
  return { isSubmitting: open > 0, whileSubmitting };
}
