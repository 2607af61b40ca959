import { emailTemplatesResource, isMailTemplateKey, MAIL_TEMPLATES } from '@pitboss/contract';
import { emailTemplates } from '../../db/schema.js';
import { iso, defineResource, type Row } from '../../resources/define.js';
import { checkTemplateInput, describedVariables, sendTestMail } from './service.js';

/**
 * Email templates: one per mail the product sends, created at start (`ensureEmailTemplates`), edited
 * here, never added or deleted. A save checks the subject and body against the template's variables
 * and sanitises the body; "Send test mail" queues the saved template with sample values.
 */
export const emailTemplatesDef = defineResource({
  spec: emailTemplatesResource,
  table: emailTemplates,
  idColumn: emailTemplates.id,
  columns: { name: emailTemplates.name, key: emailTemplates.key, status: emailTemplates.status, updatedAt: emailTemplates.updatedAt },
  searchColumns: [emailTemplates.name, emailTemplates.key, emailTemplates.subject],
  toRecord: (r) => {
    const key = String(r.key);
    return {
      _id: String(r.id), key, name: String(r.name), sentWhen: isMailTemplateKey(key) ? MAIL_TEMPLATES[key].sentWhen : '',
      subject: String(r.subject), html: String(r.html), variables: describedVariables(key, r.variables as string[]), status: r.status as 'active',
      createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  prepareUpdate: (input: Row, { existing }) => ({
    ...input,
    ...checkTemplateInput(existing.variables as string[], { subject: input.subject as string | undefined, html: input.html as string | undefined }),
  }),
  actions: {
    'send-test': async (tx, _actor, record, input) => {
      await sendTestMail(tx, Number(record._id), String(input.to));
      return `Test mail queued for ${String(input.to)}: see the mail outbox`;
    },
  },
});
