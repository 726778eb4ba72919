/**
 * Date and Timestamp as daml-lf-2.rst defines them: days / microseconds since the Unix epoch,
 * within 0001-01-01 .. 9999-12-31 (23:59:59.999999Z), printed in ISO 8601 as Daml prints them.
 */

/** 0001-01-01 and 9999-12-31 as days since 1970-01-01. */
export const MIN_DATE_DAYS = -719_162;
export const MAX_DATE_DAYS = 2_932_896;
export const MIN_TIMESTAMP_MICROS = -62_135_596_800_000_000n;
export const MAX_TIMESTAMP_MICROS = 253_402_300_799_999_999n;

const MICROS_PER_DAY = 86_400_000_000n;

export function isValidDate(days: bigint | number): boolean {
  const d = BigInt(days);
  return d >= BigInt(MIN_DATE_DAYS) && d <= BigInt(MAX_DATE_DAYS);
}

export function isValidTimestamp(micros: bigint): boolean {
  return micros >= MIN_TIMESTAMP_MICROS && micros <= MAX_TIMESTAMP_MICROS;
}

/** Civil date of a day number (proleptic Gregorian), exact for the whole Daml range. */
function civil(days: number): { year: number; month: number; day: number } {
  // Howard Hinnant's days-to-civil: integer arithmetic only, no Date object (years < 100 are fine).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** Day number of a civil date (inverse of `civil`). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** DATE_TO_TEXT: `YYYY-MM-DD`. */
export function dateToText(days: number): string {
  const { year, month, day } = civil(days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * TIMESTAMP_TO_TEXT: `YYYY-MM-DDThh:mm:ss[.fff|.ffffff]Z`, the fraction in groups of three digits
 * and left out when zero (Java's ISO_INSTANT, which Daml uses).
 */
export function timestampToText(micros: bigint): string {
  let days = micros / MICROS_PER_DAY;
  let rest = micros % MICROS_PER_DAY;
  if (rest < 0n) { rest += MICROS_PER_DAY; days -= 1n; }
  const micro = Number(rest % 1_000_000n);
  const seconds = Number(rest / 1_000_000n);
  const time = `${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}`;
  const fraction = micro === 0 ? '' : micro % 1000 === 0 ? `.${pad(micro / 1000, 3)}` : `.${pad(micro, 6)}`;
  return `${dateToText(Number(days))}T${time}${fraction}Z`;
}
