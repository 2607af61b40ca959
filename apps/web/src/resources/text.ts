/** "Sub admin" → "sub admin" for use mid-sentence; acronyms ("FAQ", "IP") keep their case. */
export function midSentence(label: string): string {
  return /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}
