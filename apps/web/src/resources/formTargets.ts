// Where a form's fields send what they need beyond the record: an image's upload, a reference's choices.
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

/**
 * Where the reference fields of the form or action dialog being shown ask for their choices: the
 * field's key → its choices endpoint (`choicesPath`), under the right that opened the form or the
 * action. None (a single record's form): the target's own list, for an admin who may browse it.
 */
export const ChoicesTarget = createContext<((key: string) => string) | null>(null);

export const useChoicesPath = (key: string): string | undefined => useContext(ChoicesTarget)?.(key);
