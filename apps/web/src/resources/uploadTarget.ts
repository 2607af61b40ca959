import { createContext, useContext } from 'react';

/**
 * The API base of the form being edited (its resource's base): an image field uploads to
 * `<base>/images`, the endpoint the contract declares for forms with an image field, under the
 * form's own write right.
 */
export const UploadTarget = createContext<string | null>(null);

export const useUploadPath = (): string | null => {
  const base = useContext(UploadTarget);
  return base ? `${base}/images` : null;
};
