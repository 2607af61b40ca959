import {faqsResource, 
} from '@pitboss/contract';
import { faqs, } from '../../db/schema.js';
import { badRequest, } from '../../http/errors.js';
import { sanitizeRichText } from '../../lib/sanitize.js';
import { iso, defineResource, type Row, } from '../../resources/define.js';

function prepareFaq(input: Row): Row {
  if (input.answer === undefined) return input;
  const answer = sanitizeRichText(String(input.answer));
  if (!answer.replace(/<[^>]*>/g, '').trim()) throw badRequest('Answer is required', { answer: 'The answer is empty once unsafe content is removed' });
  return { ...input, answer };
}

export const faqsDef = defineResource({
  spec: faqsResource,
  table: faqs,
  idColumn: faqs.id,
  columns: { question: faqs.question, category: faqs.category, sortOrder: faqs.sortOrder, status: faqs.status, updatedAt: faqs.updatedAt },
  searchColumns: [faqs.question, faqs.answer],
  toRecord: (r) => ({
    _id: String(r.id), question: r.question, answer: r.answer, category: r.category, sortOrder: r.sortOrder, status: r.status,
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: prepareFaq,
  prepareUpdate: prepareFaq,
  statusColumn: faqs.status,
});
