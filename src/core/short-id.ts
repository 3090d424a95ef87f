// Issue short ids as Sentry writes them: the project's slug in capitals, a dash, and the per-project number in
// Crockford's base32 (sentry/utils/numbers.py `base32_encode`): SHOP-1, SHOP-Z, SHOP-10, SHOP-1A…
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function base32Encode(n: number): string {
  if (n === 0) return "0";
  let out = "";
  for (let v = n; v > 0; v = Math.floor(v / 32)) out = ALPHABET[v % 32]! + out;
  return out;
}

export const formatShortId = (projectSlug: string, n: number): string => `${projectSlug.toUpperCase()}-${base32Encode(n)}`;
