import { describe, expect, it } from 'vitest';
import { cleanFilename } from './files.js';

/** No lone surrogate: with the `u` flag a class of surrogates matches only unpaired ones. */
const wellFormed = (s: string) => !/[\uD800-\uDFFF]/u.test(s);

describe('an attachment’s name', () => {
  it('keeps at most 100 characters without splitting one (a letter outside the basic plane is two UTF-16 units)', () => {
    const name = cleanFilename(`${'a'.repeat(99)}𝒜𝒜𝒜.png`, 'image/png');
    expect(name).toBe(`${'a'.repeat(99)}𝒜.png`);
    expect(wellFormed(name)).toBe(true);
    for (let n = 95; n <= 101; n++) expect(wellFormed(cleanFilename(`${'b'.repeat(n)}${'𝒜'.repeat(5)}`, 'application/pdf')), `${n}`).toBe(true);
  });

  it('replaces what is not a letter, digit or plain punctuation, drops the path and leading dots, and takes the detected type’s extension', () => {
    expect(cleanFilename('../../etc/passwd', 'application/pdf')).toBe('passwd.pdf');
    expect(cleanFilename('C:\\Users\\me\\Screen shot[1].png', 'image/png')).toBe('Screen shot_1_.png');
    expect(cleanFilename('🎉 party 🎉.jpg', 'image/jpeg')).toBe('_ party _.jpg');
    expect(cleanFilename('...hidden.exe', 'application/pdf')).toBe('hidden.pdf');
    expect(cleanFilename('🎉', 'image/png')).toBe('_.png');
    expect(cleanFilename('', 'image/png')).toBe('file.png');
  });
});
