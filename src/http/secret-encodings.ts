/**
 * The forms an answer can carry a secret in once its escapes are undone: the secret's own bytes,
 * and its bytes encoded as base64, base64url and hex. Each form is a byte string (one character per
 * byte, as `latin1` reads a buffer), what the redaction looks for in an answer's decoded views.
 */

/**
 * An encoded form this short could occur by chance in a long body (a photo's base64, a digest's hex)
 * and spoil it: encoded forms are looked for from this length up (the plain secret always).
 */
const SHORTEST_ENCODED_FORM = 8;

/** One form of a secret, and how many characters either side of it also carry the secret's bits when they are base64. */
export interface SecretForm {
  text: string;
  /** A base64 group before the form that mixes the secret's first bytes with what precedes it. */
  before: number;
  /** A base64 group after the form that mixes the secret's last bytes with what follows. */
  after: number;
}

/** base64url (RFC 4648 §5) of base64 text, padding dropped. */
function base64url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What base64 writes one group of 3 bytes as. */
const GROUP = 4;

/**
 * The base64 of a secret as it reads inside the base64 of any longer text holding it (`Bearer
 * <token>`, a header line, a JSON document): base64 codes 3 bytes as 4 characters, so the secret's
 * bytes start in one of three places of a 3-byte group. For each, the groups wholly made of the
 * secret's bytes read the same whatever surrounds them; the group at either edge, which mixes in
 * a neighbour's bits, is cut out with them.
 */
function base64Parts(secret: Buffer): SecretForm[] {
  const parts: SecretForm[] = [];
  for (let skipped = 0; skipped < 3; skipped++) {
    const whole = Math.max(0, Math.floor((secret.length - skipped) / 3) * 3);
    const text = secret.subarray(skipped, skipped + whole).toString('base64');
    parts.push({ text, before: skipped > 0 ? GROUP : 0, after: secret.length - skipped - whole > 0 ? GROUP : 0 });
  }
  return parts;
}

/** Every form of one secret looked for: plain, base64 and base64url (whole, and inside longer text), hex in either case. */
export function secretForms(secret: string): SecretForm[] {
  const bytes = Buffer.from(secret, 'utf8');
  const alone = (text: string): SecretForm => ({ text, before: 0, after: 0 });
  const base64 = [alone(bytes.toString('base64')), ...base64Parts(bytes)];
  const hex = bytes.toString('hex');
  const encoded = [...base64, ...base64.map((form) => ({ ...form, text: base64url(form.text) })), alone(hex), alone(hex.toUpperCase())];
  const forms = [alone(bytes.toString('latin1')), ...encoded.filter((form) => form.text.length >= SHORTEST_ENCODED_FORM)];
  return forms.filter((form, index) => form.text !== '' && forms.findIndex((other) => other.text === form.text) === index);
}
