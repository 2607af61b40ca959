// Runs before the first paint (a file, not inline: the CSP allows no inline script): the colour
// scheme the admin chose in the header menu (Mantine keeps it in localStorage), else the system's.
(() => {
  let chosen = 'auto';
  try {
    chosen = localStorage.getItem('mantine-color-scheme-value') || 'auto';
  } catch {}
  const dark = chosen === 'dark' || (chosen !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
})();
