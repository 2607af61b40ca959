import { isMailTemplateKey, MAIL_TEMPLATES, sampleVars, type TemplatePreview } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { checkTemplate, renderTemplate, sanitizeMailHtml, templateError, htmlToText } from '../../mail/render.js';
import { checkSubject, enqueueMail } from '../../mail/mailer.js';
import { emailTemplates } from './table.js';

export type EmailTemplateRow = typeof emailTemplates.$inferSelect;

/** A template's variables as the catalogue describes them (name, what it holds, a sample value). */
export function describedVariables(key: string, names: readonly string[]) {
  const catalogue: Readonly<Record<string, { description: string; sample: string }>> = isMailTemplateKey(key) ? MAIL_TEMPLATES[key].variables : {};
  return names.map((name) => ({ name, description: catalogue[name]?.description ?? '', sample: catalogue[name]?.sample ?? '' }));
}

/**
 * Checks a subject and body against the template's variables: a variable it does not accept, an
 * unescaped or other refused construct is a 400 on that field naming it; then the body is sanitised
 * (mail HTML allowlist: no script, no event handler). Returns the values to store.
 */
export function checkTemplateInput(variables: readonly string[], input: { subject?: string | undefined; html?: string | undefined }): { subject?: string; html?: string } {
  const errors: Record<string, string> = {};
  for (const field of ['subject', 'html'] as const) {
    const source = input[field];
    if (source === undefined) continue;
    const problem = templateError(checkTemplate(source, variables), variables);
    if (problem) errors[field] = problem;
  }
  const out: { subject?: string; html?: string } = {};
  if (input.html !== undefined && !errors.html) {
    const html = sanitizeMailHtml(input.html);
    if (!html.replace(/<[^>]*>/g, '').trim()) errors.html = 'The body is empty once unsafe content is removed';
    // Sanitising must not have made a placeholder out of something else.
    const again = templateError(checkTemplate(html, variables), variables);
    if (again && !errors.html) errors.html = again;
    out.html = html;
  }
  if (input.subject !== undefined) out.subject = input.subject;
  const messages = Object.values(errors);
  if (messages.length) throw badRequest(messages[0]!, errors);
  return out;
}

/** Renders a subject and body with the given values (each variable falls back to its sample). */
export function renderPreview(row: Pick<EmailTemplateRow, 'key' | 'variables'>, source: { subject: string; html: string }, vars: Record<string, string> = {}): TemplatePreview {
  const checked = checkTemplateInput(row.variables, source);
  const values = { ...sampleVars(row.key), ...Object.fromEntries(Object.entries(vars).filter(([k]) => row.variables.includes(k))) };
  for (const name of row.variables) values[name] ??= '';
  const html = renderTemplate(checked.html!, values, 'html', row.variables);
  const subject = checkSubject(renderTemplate(checked.subject!, values, 'text', row.variables));
  return { subject, html, text: htmlToText(html) };
}

export async function loadTemplate(db: DbOrTx, id: number): Promise<EmailTemplateRow> {
  const [row] = await db.select().from(emailTemplates).where(eq(emailTemplates.id, id)).limit(1);
  if (!row) throw notFound('Email template');
  return row;
}

/** The saved template with its sample values, queued to `to` like any mail (subject marked as a test). */
export async function sendTestMail(tx: DbOrTx, id: number, to: string): Promise<number> {
  const row = await loadTemplate(tx, id);
  const mail = renderPreview(row, row);
  return enqueueMail(tx, { to, subject: `[Test] ${mail.subject}`, html: mail.html, templateKey: row.key });
}
