import { Box } from '@mantine/core';

/**
 * The policy inside the preview: nothing may run or load but inline styles and https/data images.
 * The iframe's `sandbox` (no `allow-scripts`, no `allow-same-origin`) already stops script and
 * gives the document an opaque origin; the policy is a second wall should the sandbox be loosened.
 */
export const PREVIEW_CSP = "default-src 'none'; script-src 'none'; img-src https: data:; style-src 'unsafe-inline'; font-src https: data:; form-action 'none'; base-uri 'none'";

/** A whole HTML document for the preview frame: the policy first, then the markup as given. */
export function previewDocument(html: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}"><meta name="referrer" content="no-referrer"></head><body style="margin:16px;font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;color:#222;background:#fff">${html}</body></html>`;
}

/**
 * HTML shown as it will look (a mail body, a CMS page) without it being able to run anything: a
 * sandboxed iframe (`sandbox=""`: no scripts, no forms, no popups, no top navigation, opaque origin)
 * filled through `srcdoc`, with a Content-Security-Policy that forbids script.
 */
export function SandboxedHtml({ html, title, height = 420 }: { html: string; title: string; height?: number }) {
  return (
    <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden', background: '#fff' }}>
      <iframe
        title={title}
        data-testid="sandboxed-preview"
        sandbox=""
        referrerPolicy="no-referrer"
        srcDoc={previewDocument(html)}
        style={{ display: 'block', width: '100%', height, border: 0 }}
      />
    </Box>
  );
}
