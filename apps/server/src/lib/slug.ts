/** Lower-case ASCII words joined by '-' (accents dropped), at most `max` characters; `fallback` when nothing is left. */
export function slugify(name: string, fallback: string, max = 60): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, max)
      .replace(/-+$/, '') || fallback
  );
}
