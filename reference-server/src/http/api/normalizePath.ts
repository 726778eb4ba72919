/**
 * Collapses runs of slashes: a client whose base URL ends in `/` asks for `//v2/updates`
 * (wallet-sdk does), and the real participant answers it as `/v2/updates`.
 */
export function normalizePath(path: string): string {
  return path.includes('//') ? path.replace(/\/{2,}/g, '/') : path;
}
