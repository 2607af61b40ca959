import { rewardCardCmsResource } from '@pitboss/contract';
import { sanitizeRichText } from '../../lib/sanitize.js';
import { iso, defineResource, type Row } from '../../resources/define.js';
import { rewardCardCmsBlocks } from './table.js';

/** The text is rich text: kept only as the sanitiser's allowlist leaves it (what the preview and the platform show). */
function prepareBlock(input: Row): Row {
  if (input.body === undefined) return input;
  const body = sanitizeRichText(String(input.body));
  // Nothing left but empty tags (`<p></p>`): no text.
  return { ...input, body: body.replace(/<[^>]*>/g, '').trim() ? body : '' };
}

export const rewardCardCmsDef = defineResource({
  spec: rewardCardCmsResource,
  table: rewardCardCmsBlocks,
  idColumn: rewardCardCmsBlocks.id,
  columns: { title: rewardCardCmsBlocks.title, sortOrder: rewardCardCmsBlocks.sortOrder, status: rewardCardCmsBlocks.status, updatedAt: rewardCardCmsBlocks.updatedAt },
  searchColumns: [rewardCardCmsBlocks.title, rewardCardCmsBlocks.body],
  toRecord: (r) => ({
    _id: String(r.id), title: String(r.title), body: String(r.body ?? ''), imageUrl: String(r.imageUrl ?? ''), sortOrder: Number(r.sortOrder),
    status: r.status as 'active', createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: prepareBlock,
  prepareUpdate: prepareBlock,
  statusColumn: rewardCardCmsBlocks.status,
});
