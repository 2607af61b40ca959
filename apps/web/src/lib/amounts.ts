/** The whole part of an amount's text grouped by thousands: "4372.5 USDC" → "4,372.5 USDC"; the rest as it is. */
export function groupThousands(text: string): string {
  return text.replace(/^([+\-−]?)(\d{4,})/, (_, sign: string, whole: string) => sign + whole.replace(/\B(?=(\d{3})+$)/g, ','));
}
