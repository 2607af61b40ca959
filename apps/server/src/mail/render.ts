import { LINE_BREAK } from '@pitboss/contract';
import Mustache from 'mustache';
import sanitizeHtml from 'sanitize-html';

/*
 * Mail templates are Mustache (mustache.js): logic-less, interpreted (no code is generated from a
 * template, unlike Handlebars' compiler), escaping by default. On top of that a template may use
 * only what `templateProblems` allows: escaped variables (`{{name}}`) and sections over them
 * (`{{#reason}}…{{/reason}}`, `{{^reason}}…{{/reason}}`) among the template's declared variables,
 * and comments. Unescaped output (`{{{x}}}`, `{{&x}}`), partials, dotted names, the implicit
 * iterator and changed delimiters are refused, so there is nothing to call and nothing raw.
 */

type Token = [string, string, number, number, Token[]?, number?];

export interface TemplateCheck {
  /** Declared names the source does not know: refused. */
  unknown: string[];
  /** Constructs refused outright (unescaped output, partials…), as the admin wrote them. */
  refused: string[];
  /** Could not be parsed (an unclosed section…). */
  syntax: string | null;
}

function parse(source: string): Token[] {
  return Mustache.parse(source) as unknown as Token[];
}

/** What is wrong with a template source given the variables it may use; empty lists when nothing. */
export function checkTemplate(source: string, allowed: readonly string[]): TemplateCheck {
  const out: TemplateCheck = { unknown: [], refused: [], syntax: null };
  let tokens: Token[];
  try {
    tokens = parse(source);
  } catch (err) {
    out.syntax = (err as Error).message.replace(/\s+/g, ' ');
    return out;
  }
  const allow = new Set(allowed);
  const walk = (list: Token[]) => {
    for (const t of list) {
      const [type, value] = t;
      if (type === 'text' || type === '!') continue;
      if (type === 'name' || type === '#' || type === '^') {
        if (!allow.has(value) && !out.unknown.includes(value)) out.unknown.push(value);
        if (t[4]) walk(t[4]);
        continue;
      }
      const shown = type === '&' ? `{{{${value}}}}` : type === '>' ? `{{> ${value}}}` : type === '=' ? `{{=${value}=}}` : `{{${type}${value}}}`;
      if (!out.refused.includes(shown)) out.refused.push(shown);
    }
  };
  walk(tokens);
  return out;
}

/** The message of a failed check, or null. */
export function templateError(check: TemplateCheck, allowed: readonly string[]): string | null {
  if (check.syntax) return `Template syntax: ${check.syntax}`;
  if (check.refused.length) return `Not allowed in a template: ${check.refused.join(', ')} (only {{variable}} and {{#variable}}…{{/variable}} sections; values are always escaped)`;
  if (check.unknown.length) {
    const list = allowed.length ? allowed.map((v) => `{{${v}}}`).join(', ') : 'none';
    return `Unknown variable${check.unknown.length > 1 ? 's' : ''} ${check.unknown.map((v) => `{{${v}}}`).join(', ')}: this template accepts ${list}`;
  }
  return null;
}

export class TemplateRenderError extends Error {}

function view(vars: Readonly<Record<string, string>>, used: readonly string[]): Record<string, string> {
  // No prototype: a name can only ever find a value the sender passed.
  const v = Object.create(null) as Record<string, string>;
  for (const name of used) {
    if (!Object.hasOwn(vars, name)) throw new TemplateRenderError(`No value for {{${name}}}`);
    v[name] = String(vars[name]);
  }
  return v;
}

function namesOf(source: string): string[] {
  const names = new Set<string>();
  const walk = (list: Token[]) => {
    for (const t of list) {
      if (t[0] === 'name' || t[0] === '#' || t[0] === '^') names.add(t[1]);
      if (t[4]) walk(t[4]);
    }
  };
  walk(parse(source));
  return [...names];
}

/**
 * Renders a checked template. `html`: every value HTML-escaped; `text`: values as they are (a
 * subject), after which the caller checks the line. A template that would not pass `checkTemplate`
 * against `allowed` throws (templates are checked on save; this holds the line at send time too).
 */
export function renderTemplate(source: string, vars: Readonly<Record<string, string>>, mode: 'html' | 'text', allowed: readonly string[]): string {
  const problem = templateError(checkTemplate(source, allowed), allowed);
  if (problem) throw new TemplateRenderError(problem);
  const escapeValue = mode === 'html' ? escapeHtml : (s: string) => s;
  return Mustache.render(source, view(vars, namesOf(source)), {}, { escape: escapeValue });
}

/**
 * HTML-escapes a value substituted into a template: enough for text and for quoted attributes (the
 * sanitiser writes every attribute quoted). `=` and `/` stay as they are, so a link's query
 * (`?token=…`) reads the same in the stored HTML (the outbox redacts tokens by that pattern).
 */
export function escapeHtml(value: string): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** No header injection: a subject (rendered) or an address holding a line break is refused, never folded. */
export function hasLineBreak(value: string): boolean {
  return LINE_BREAK.test(value) || /[\u0000-\u001F\u007F]/.test(value);
}

/**
 * Mail HTML as admins may write it: the layout tags mail clients understand (tables, inline styles,
 * images over https), links over http(s)/mailto; no script, no event handler, no form, no frame, no
 * `<style>` block (it cannot be checked), no `javascript:` or `data:` URL.
 */
export function sanitizeMailHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p', 'br', 'hr', 'div', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sup', 'sub', 'a', 'img', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4',
      'blockquote', 'code', 'pre', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'center', 'font',
    ],
    allowedAttributes: {
      '*': ['style', 'align', 'valign', 'width', 'height', 'bgcolor', 'class', 'dir', 'title'],
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height', 'border'],
      table: ['border', 'cellpadding', 'cellspacing', 'role'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
      font: ['color', 'face', 'size'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    allowedStyles: {
      '*': Object.fromEntries(
        [
          'color', 'background-color', 'font-family', 'font-size', 'font-weight', 'font-style', 'line-height', 'text-align', 'text-decoration', 'vertical-align',
          'padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left', 'margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left',
          'border', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-radius', 'border-collapse', 'width', 'max-width', 'height', 'display',
          'letter-spacing',
        ].map((p) => [p, [/^(?!.*(?:expression|url)\s*\()[-#%.,()\w\s'"]*$/i]]),
      ),
    },
  }).trim();
}

export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/h\d|\/li|\/tr)\s*\/?>/gi, '\n')
    .replace(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, '$2 ($1)')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&#61;/g, '=').replace(/&#x3D;/g, '=').replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
