import { createTheme, darken, defaultCssVariablesResolver, defaultVariantColorsResolver, lighten, luminance, parseThemeColor, toRgba, type CSSVariablesResolver, type MantineTheme, type VariantColorsResolver } from '@mantine/core';

/**
 * WCAG 2.2 AA asks 4.5:1 for text (badges, pager and captions are small). Mantine's default shades
 * miss it in places (indigo 6 under white text 4.3:1, yellow 9 on yellow 1 2.7:1, gray 6 on white
 * 3.3:1), so the colours text is drawn in are derived here from the palette, for every colour and
 * both schemes, the nearest to Mantine's own that reaches the target; pages keep saying
 * `color="yellow"` or `c="dimmed"`. A little above 4.5 for the backgrounds measured against
 * (white, gray 0, a light badge) against rounding and hover shades.
 */
const TARGET = 4.7;

/** Surfaces text sits on: white and gray 0 in light, the body and papers (dark 7, dark 6) in dark. */
const LIGHT_SURFACES = ['#ffffff', '#f8f9fa', '#f1f3f5'];
const DARK_SURFACES = ['#242424', '#2e2e2e', '#3b3b3b'];

const hex = (color: string): string => {
  const { r, g, b } = toRgba(color);
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
};

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const readsOn = (color: string, surfaces: readonly string[]) => surfaces.every((s) => contrast(color, s) >= TARGET);

/** `color`, darkened (light scheme) or lightened (dark) in small steps until it reads on every surface. */
export function readable(color: string, surfaces: readonly string[], scheme: 'light' | 'dark'): string {
  for (let step = 0; step <= 40; step++) {
    const c = step === 0 ? color : scheme === 'light' ? darken(color, step * 0.025) : lighten(color, step * 0.025);
    if (readsOn(c, surfaces)) return hex(c);
  }
  return scheme === 'light' ? '#000000' : '#ffffff';
}

/** A filled background and its text: the first shade from `from` on that holds white text, else `from` with black text. */
function filled(shades: readonly string[], from: number): { bg: string; hover: string; text: string } {
  for (let i = from; i < shades.length; i++) {
    if (contrast(shades[i]!, '#ffffff') >= TARGET) return { bg: shades[i]!, hover: shades[Math.min(i + 1, 9)]!, text: '#ffffff' };
  }
  return { bg: shades[from]!, hover: shades[Math.min(from + 1, 9)]!, text: '#000000' };
}

/** Mantine's variables, with the text colours of every palette colour made readable in both schemes. */
const cssVariablesResolver: CSSVariablesResolver = (theme: MantineTheme) => {
  const base = defaultCssVariablesResolver(theme);
  const light: Record<string, string> = { ...base.light };
  const dark: Record<string, string> = { ...base.dark };
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (!Array.isArray(shades) || shades.length < 10) continue;
    const s = shades as readonly string[];
    // Light: filled from shade 6, light badges (shade 1) with a darker shade 9, text on white.
    const lf = filled(s, 6);
    const lightText = readable(s[6]!, LIGHT_SURFACES, 'light');
    Object.assign(light, {
      [`--mantine-color-${name}-filled`]: lf.bg,
      [`--mantine-color-${name}-filled-hover`]: lf.hover,
      [`--mantine-color-${name}-contrast`]: lf.text,
      [`--mantine-color-${name}-light-color`]: readable(s[9]!, [s[1]!, s[2]!, '#ffffff'], 'light'),
      [`--mantine-color-${name}-text`]: lightText,
      [`--mantine-color-${name}-outline`]: lightText,
    });
    // Dark: filled from shade 8, light badges on shade 9 darkened by half with shade 0, text on the body.
    const df = filled(s, 8);
    const darkText = readable(s[4]!, DARK_SURFACES, 'dark');
    Object.assign(dark, {
      [`--mantine-color-${name}-filled`]: df.bg,
      [`--mantine-color-${name}-filled-hover`]: df.hover,
      [`--mantine-color-${name}-contrast`]: df.text,
      [`--mantine-color-${name}-light-color`]: readable(s[0]!, [darken(s[9]!, 0.3), ...DARK_SURFACES], 'dark'),
      [`--mantine-color-${name}-text`]: darkText,
      [`--mantine-color-${name}-outline`]: darkText,
    });
  }
  const primary = theme.primaryColor;
  const gray = theme.colors.gray;
  const darkShades = theme.colors.dark;
  Object.assign(light, {
    '--mantine-primary-color-contrast': light[`--mantine-color-${primary}-contrast`],
    '--mantine-color-anchor': light[`--mantine-color-${primary}-text`],
    '--mantine-color-error': light['--mantine-color-red-text'],
    '--mantine-color-dimmed': readable(gray[6], LIGHT_SURFACES, 'light'),
    '--mantine-color-placeholder': readable(gray[6], LIGHT_SURFACES, 'light'),
  });
  Object.assign(dark, {
    '--mantine-primary-color-contrast': dark[`--mantine-color-${primary}-contrast`],
    '--mantine-color-anchor': dark[`--mantine-color-${primary}-text`],
    '--mantine-color-error': dark['--mantine-color-red-text'],
    '--mantine-color-dimmed': readable(darkShades[2], DARK_SURFACES, 'dark'),
    '--mantine-color-placeholder': readable(darkShades[2], DARK_SURFACES, 'dark'),
  });
  return { variables: base.variables, light, dark };
};

/** Filled theme colours take the text colour chosen for them above (white, or black on yellow and the like). */
const variantColorResolver: VariantColorsResolver = (input) => {
  const result = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (input.variant === 'filled' && parsed.isThemeColor && parsed.shade === undefined) {
    return { ...result, color: `var(--mantine-color-${parsed.color}-contrast)` };
  }
  return result;
};

type PaginationControl = 'first' | 'previous' | 'last' | 'next';
const PAGER_LABELS: Record<PaginationControl, string> = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'sm',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '600' },
  variantColorResolver,
  components: {
    // Icon-only controls get names: the close "×" of drawers, modals and toasts, the pager's arrows.
    CloseButton: { defaultProps: { 'aria-label': 'Close' } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Pagination: { defaultProps: { getControlProps: (control: PaginationControl) => ({ 'aria-label': PAGER_LABELS[control] }), getItemProps: (page: number) => ({ 'aria-label': `Page ${page}` }) } },
    // "Toggle password visibility" would also answer to the label "Password"; keep field labels unambiguous.
    PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': 'Show or hide the characters' } } },
    Table: { defaultProps: { verticalSpacing: 'xs', horizontalSpacing: 'sm' } },
  },
});

export { cssVariablesResolver };
