/** A spec that cannot be read, parsed or compiled: a configuration error (the CLI answers exit 2). */
export class SpecLoadError extends Error {
  override readonly name = 'SpecLoadError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}
