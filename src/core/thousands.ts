/**
 * A whole number with its thousands grouped, as en-US writes it (`4,096`), without Intl: the first
 * toLocaleString of a process loads ICU's number formats, some 30 ms, which a check should not pay
 * for a figure in a sentence.
 */
export function thousands(value: number): string {
  const [whole = '', fraction] = String(value).split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) grouped = `${digits.slice(Math.max(0, end - 3), end)}${grouped ? `,${grouped}` : ''}`;
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}
