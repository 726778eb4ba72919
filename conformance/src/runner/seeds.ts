/** A run seed when none is given: 31 bits, printable, different per run. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}

/**
 * The seed a check uses: derived from the run seed and the check id, so `--only <id> --seed N`
 * replays exactly what the full run with `--seed N` did for that check.
 */
export function checkSeed(runSeed: number, checkId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < checkId.length; i++) {
    h ^= checkId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h ^ runSeed) >>> 0;
}
