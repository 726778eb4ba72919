import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

/** One HTTP exchange of a case: what to send. Strings may hold `${name}` placeholders. */
export interface GoldenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value, sent serialised (without Content-Type, as the real ledger client does). */
  readonly body?: unknown;
  /** A raw body, sent as is (for malformed input). */
  readonly bodyText?: string;
  /** A binary body, base64-encoded here and sent as bytes (DAR uploads). */
  readonly bodyBase64?: string;
}

/** What must come back. Every member is optional; a case states what matters to it. */
export interface GoldenExpect {
  readonly status: number;
  /** A prefix of the Content-Type header (`application/json`, `text/plain`). */
  readonly contentType?: string;
  /** A subset of the JSON body: objects match by the members given, arrays element by element. */
  readonly body?: unknown;
  /** The whole text body, exactly. */
  readonly bodyText?: string;
  /** A regular expression the text body must match. */
  readonly bodyMatches?: string;
  /** Validate against our spec (default true; false for paths the spec does not describe). */
  readonly conforms?: boolean;
}

export interface GoldenStep {
  readonly request: GoldenRequest;
  readonly expect: GoldenExpect;
  /** Values to keep for later steps: name -> dotted path into the JSON body (`partyDetails.party`). */
  readonly capture?: Readonly<Record<string, string>>;
}

export interface GoldenCase {
  /** The file, relative to the cases folder. */
  readonly file: string;
  readonly title: string;
  /** Requests that prepare the case (their expectations are checked too). */
  readonly setup: readonly GoldenStep[];
  readonly request: GoldenRequest;
  readonly expect: GoldenExpect;
  readonly capture?: Readonly<Record<string, string>>;
  /**
   * Requests sent after the case whatever its outcome, their answers unchecked: what the case made
   * on a participant that keeps it and counts it (identity provider configs: 16 at most).
   */
  readonly teardown: readonly GoldenRequest[];
}

/** Reads every `*.yaml` / `*.json` case under a folder, sorted by path, checking each has the required parts. */
export function loadGoldenCases(root: string): GoldenCase[] {
  return listFiles(root)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((file) => {
      const raw = parse(readFileSync(file, 'utf8')) as Partial<GoldenCase> | null;
      const name = relative(root, file);
      if (raw === null || typeof raw !== 'object') throw new Error(`${name}: not a case object`);
      if (typeof raw.title !== 'string') throw new Error(`${name}: missing title`);
      if (raw.request === undefined || typeof raw.request.method !== 'string' || typeof raw.request.path !== 'string') {
        throw new Error(`${name}: request needs method and path`);
      }
      if (raw.expect === undefined || typeof raw.expect.status !== 'number') throw new Error(`${name}: expect needs a status`);
      return { ...raw, file: name, title: raw.title, setup: raw.setup ?? [], request: raw.request, expect: raw.expect, teardown: raw.teardown ?? [] };
    });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
