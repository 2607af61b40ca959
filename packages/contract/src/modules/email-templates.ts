import { z } from 'zod';
import { endpoint, readAccess } from '../resources/endpoint.js';
import { emailSchema } from './auth.js';
import { recordFields, resourceSpec, STATUS_OPTIONS, statusSchema, updateSchemaOf } from '../resources/spec.js';

// ── Email templates ────────────────────────────────────────────────────────
/**
 * Every mail the product sends, with the variables the code passes to it. The code is what fills a
 * template, so the variables are declared here, per template, not typed by the admin: a subject or
 * body using another name is refused on save (400 naming it), and the mailer's `enqueueTemplate` is
 * typed from this list, so a sender cannot forget one. Each variable has a sample value for the
 * preview and the test mail.
 */
export const MAIL_TEMPLATES = {
  forgot_password: {
    name: 'Forgot password',
    sentWhen: 'An admin asks for a password reset link on the sign-in page.',
    variables: {
      name: { description: "The admin's name", sample: 'Maya Support' },
      email: { description: "The admin's email", sample: 'maya.support@pitboss.local' },
      link: { description: 'The single-use reset link', sample: 'https://admin.pitboss.example/verification/forgotPassword?token=sample-token' },
      expiresInMinutes: { description: 'How long the link works', sample: '30' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
  email_changed: {
    name: 'Admin email changed',
    sentWhen: "An admin changes their own email (sent to the old address).",
    variables: {
      name: { description: "The admin's name", sample: 'Maya Support' },
      oldEmail: { description: 'The address before the change', sample: 'maya.old@pitboss.local' },
      newEmail: { description: 'The new address', sample: 'maya.support@pitboss.local' },
    },
  },
  two_factor_changed: {
    name: 'Two-factor authentication changed',
    sentWhen: "2FA is turned on or off, recovery codes are renewed, or a manager resets an admin's 2FA.",
    variables: {
      name: { description: "The admin's name", sample: 'Maya Support' },
      email: { description: "The admin's email", sample: 'maya.support@pitboss.local' },
      change: { description: 'What changed, as a sentence', sample: 'Two-factor authentication was turned on for your account.' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
  new_sign_in_country: {
    name: 'Sign-in from a new country',
    sentWhen: 'An admin signs in from a country they never signed in from before.',
    variables: {
      name: { description: "The admin's name", sample: 'Maya Support' },
      email: { description: "The admin's email", sample: 'maya.support@pitboss.local' },
      country: { description: 'Country name', sample: 'Portugal' },
      location: { description: 'City and country, as known', sample: 'Lisbon, Portugal' },
      ip: { description: 'The address signed in from', sample: '203.0.113.7' },
      device: { description: 'Browser and operating system', sample: 'Firefox 133 on Windows 10' },
      time: { description: 'When (UTC)', sample: '2026-11-26 09:14 UTC' },
      link: { description: 'Link to the profile (sessions)', sample: 'https://admin.pitboss.example/profile' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
  withdrawal_approved: {
    name: 'Withdrawal approved',
    sentWhen: "A user's withdrawal is approved (by an admin, or automatically for a whitelisted address under the limit).",
    variables: {
      username: { description: "The user's username", sample: 'luna_trader' },
      amount: { description: 'Amount the user receives, with the coin', sample: '125.5 USDC' },
      fee: { description: 'Fee, with the coin', sample: '0.5 USDC' },
      toAddress: { description: 'Destination wallet', sample: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
      withdrawalId: { description: 'Withdrawal number', sample: '1042' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
  withdrawal_rejected: {
    name: 'Withdrawal rejected',
    sentWhen: "A user's withdrawal request is rejected by an admin (the held funds are released).",
    variables: {
      username: { description: "The user's username", sample: 'luna_trader' },
      amount: { description: 'Amount requested, with the coin', sample: '125.5 USDC' },
      toAddress: { description: 'Destination wallet', sample: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
      reason: { description: "The reviewer's reason", sample: 'The destination could not be verified.' },
      withdrawalId: { description: 'Withdrawal number', sample: '1042' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
  deposit_confirmed: {
    name: 'Deposit confirmed',
    sentWhen: "A user's deposit is confirmed and credited.",
    variables: {
      username: { description: "The user's username", sample: 'luna_trader' },
      amount: { description: 'Amount credited, with the coin', sample: '250 USDC' },
      txSignature: { description: 'Transaction signature', sample: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW' },
      depositId: { description: 'Deposit number', sample: '877' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
  ticket_reply: {
    name: 'Support ticket reply',
    sentWhen: "An admin answers a user's support ticket.",
    variables: {
      username: { description: "The user's username", sample: 'luna_trader' },
      ticketId: { description: 'Ticket number', sample: '311' },
      subject: { description: "The ticket's subject", sample: 'Deposit not showing' },
      message: { description: "The admin's answer, as plain text (with the names of attached files)", sample: 'Your deposit was confirmed a few minutes ago.' },
      adminName: { description: 'The answering admin’s name', sample: 'Maya Okafor' },
      siteName: { description: 'Site name (site settings)', sample: 'Pitboss' },
    },
  },
} as const satisfies Record<string, { name: string; sentWhen: string; variables: Record<string, { description: string; sample: string }> }>;

export type MailTemplateKey = keyof typeof MAIL_TEMPLATES;
/** The values a sender passes to template `K`: every declared variable, as text. */
export type MailVars<K extends MailTemplateKey> = { [V in keyof (typeof MAIL_TEMPLATES)[K]['variables']]: string };

export const MAIL_TEMPLATE_KEYS = Object.keys(MAIL_TEMPLATES) as MailTemplateKey[];

export function isMailTemplateKey(key: string): key is MailTemplateKey {
  return Object.hasOwn(MAIL_TEMPLATES, key);
}

/** The sample values of a template's variables (preview, test mail). */
export function sampleVars(key: string): Record<string, string> {
  if (!isMailTemplateKey(key)) return {};
  return Object.fromEntries(Object.entries(MAIL_TEMPLATES[key].variables).map(([k, v]) => [k, v.sample]));
}

/** A subject is one line: CR, LF and the Unicode line and paragraph separators would start a new mail header. */
export const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;

const variableSchema = z.object({ name: z.string(), description: z.string(), sample: z.string() }).strict();

export const emailTemplateRecord = z.object({
  _id: recordFields.id, key: z.string(), name: z.string(), sentWhen: z.string(), subject: z.string(), html: z.string(),
  variables: z.array(variableSchema), status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

const subjectSchema = z
  .string({ error: 'Subject is required' })
  .trim()
  .min(1, 'Subject is required')
  .max(200, 'At most 200 characters')
  .refine((v) => !LINE_BREAK.test(v), 'The subject must be one line (no line breaks)');
const htmlSchema = z.string({ error: 'Body is required' }).trim().min(1, 'Body is required').max(100_000, 'At most 100,000 characters');

/** Templates are created by the product (one per mail it sends), never added or deleted by hand: only edited. */
export const emailTemplateUpdate = updateSchemaOf(
  z.object({
    name: z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(120, 'At most 120 characters'),
    subject: subjectSchema,
    html: htmlSchema,
    status: statusSchema,
  }),
).strict();

export const sendTestMailInput = z
  .object({
    to: emailSchema,
  })
  .strict();

export const emailTemplatesResource = resourceSpec(emailTemplateRecord, {
  name: 'email-templates',
  label: 'Email template',
  plural: 'Email templates',
  restriction: 'Email Templates',
  pages: { list: '/email-template-list', update: '/updatetemplate/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'key', label: 'Key', type: 'code', sortable: true },
    { key: 'subject', label: 'Subject', type: 'text' },
    { key: 'sentWhen', label: 'Sent when', type: 'text', hidden: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'updatedAt', label: 'Updated', type: 'date', sortable: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: STATUS_OPTIONS },
    { key: 'updatedAt', label: 'Updated', type: 'dateRange' },
  ],
  search: 'name, key or subject',
  defaultSort: 'name',
  deleteMode: 'none',
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'subject', label: 'Subject', type: 'text', required: true, description: 'One line. {{variable}} placeholders are filled in as plain text.' },
    {
      key: 'html',
      label: 'Body (HTML)',
      type: 'textarea',
      required: true,
      description: 'Mail HTML with {{variable}} placeholders (values are HTML-escaped). Scripts, event handlers and unsafe links are removed on save. The Preview tab lists the variables.',
    },
    { key: 'status', label: 'Status', type: 'select', options: STATUS_OPTIONS, description: 'An inactive template is not sent: the product skips that mail.' },
  ],
  update: emailTemplateUpdate,
  actions: [
    {
      name: 'send-test',
      label: 'Send test mail',
      right: 'edit',
      input: sendTestMailInput,
      fields: [{ key: 'to', label: 'Send to', type: 'email', required: true, description: 'The saved template, filled with the sample values, queued in the mail outbox like any mail.' }],
    },
  ],
});

/** What a preview answers: the mail as it would be sent with the given values. */
export const templatePreviewSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type TemplatePreview = z.infer<typeof templatePreviewSchema>;

export const emailTemplateEndpoints = {
  // A read (POST only because it takes the text being edited): a view-only admin sees what users receive.
  templatePreview: endpoint('POST /api/admin/email-templates/:id/preview', {
    access: readAccess('Email Templates'),
    summary: "Renders a template's subject and body (as given, or as saved) with sample values: unknown variables are a 400 naming them, the body is sanitised as on save",
    params: z.object({ id: recordFields.id }),
    body: z
      .object({
        subject: z.string().max(1_000).optional(),
        html: z.string().max(100_000).optional(),
        vars: z.record(z.string().max(100), z.string().max(2_000)).optional(),
      })
      .strict(),
    result: templatePreviewSchema,
  }),
};
