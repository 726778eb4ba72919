import { createHash } from 'node:crypto';
import type { Group } from '../checks/types.js';
import { getWithBody } from './getWithBody.js';
import { curlOf } from './curl.js';
import type { AuthMode, Exchange, HttpMethod, RecordedRequest, RecordedResponse, RequestSpec, TransportError } from './exchange.js';
import type { TokenProvider } from './tokenProvider.js';
import { retryDelayMs, withRetryAfter } from './retryAfter.js';
import { transportErrorOf } from './transportError.js';
import { openStream, type StreamOptions, type StreamResult } from './websocket.js';

export interface TargetOptions {
  /** Base URL per group (`--ledger-url` etc., defaulting to `--target`). */
  readonly baseUrls: Readonly<Record<Group, string>>;
  /**
   * The validator's base URL serving the scan proxy (`--scan-proxy-url`): the Scan group's
   * `/v0/scan-proxy/...` requests go there, with the same token. Absent: to the Scan base URL.
   */
  readonly scanProxyUrl?: string;
  readonly tokens?: TokenProvider;
  /** Per-request budget covering connect, headers and body (`--timeout`). */
  readonly timeoutMs: number;
  /** The suite stops reading a body after this many bytes and marks it truncated. */
  readonly maxBodyBytes?: number;
  /** operationId of a request, for reports and schema validation (the shared spec matcher). */
  readonly operationOf?: (group: Group, method: HttpMethod, path: string) => string | undefined;
}

/** The HTTP + WebSocket client a check uses; every exchange is recorded. */
export interface TargetClient {
  request(group: Group, spec: RequestSpec): Promise<Exchange>;
  /** One WebSocket session: send `request`, collect frames until `until`, close or timeout. */
  stream(group: Group, path: string, options: StreamOptions): Promise<StreamResult>;
  baseUrl(group: Group): string;
}

export interface Target {
  readonly options: TargetOptions;
  /** A client whose exchanges go to `record` (one per check) and carry `checkId`. */
  bind(checkId: string, record: (e: Exchange) => void): TargetClient;
}

const DEFAULT_MAX_BODY = 8 * 1024 * 1024;

export function createTarget(options: TargetOptions): Target {
  let seq = 0;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;

  async function tokenFor(mode: AuthMode | undefined, fresh?: string): Promise<{ value?: string; show: boolean }> {
    if (mode === 'none') return { show: false };
    if (mode !== undefined && mode !== 'default') return { value: mode.token, show: mode.show === true };
    if (fresh !== undefined) return { value: fresh, show: false };
    return { value: options.tokens ? await options.tokens.token() : undefined, show: false };
  }

  // A validator serves the scan proxy at its own URL; Scan serves no /v0/scan-proxy paths.
  function baseFor(group: Group, path: string): string {
    return group === 'scan' && options.scanProxyUrl !== undefined && isScanProxyPath(path) ? options.scanProxyUrl : options.baseUrls[group];
  }

  async function once(group: Group, spec: RequestSpec, checkId: string, freshToken?: string): Promise<Exchange> {
    const url = joinUrl(baseFor(group, spec.path), spec.path, spec.query);
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    const body = spec.bytes !== undefined ? undefined : (spec.body ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json)));
    if ((body !== undefined || spec.bytes !== undefined) && spec.contentType !== null && !hasHeader(headers, 'content-type')) {
      headers['content-type'] = spec.contentType ?? (spec.bytes !== undefined ? 'application/octet-stream' : 'application/json');
    }
    const token = await tokenFor(spec.auth, freshToken);
    const shown: Record<string, string> = { ...headers };
    if (token.value !== undefined && !hasHeader(headers, 'authorization')) {
      headers.authorization = `Bearer ${token.value}`;
      shown.authorization = token.show ? headers.authorization : 'Bearer $TOKEN';
    }
    const request: RecordedRequest = {
      method: spec.method,
      url,
      headers: shown,
      ...(body === undefined ? {} : { body }),
      ...(spec.bytes === undefined ? {} : { bodyBase64: Buffer.from(spec.bytes).toString('base64') }),
    };
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    let response: RecordedResponse | undefined;
    let error: TransportError | undefined;
    try {
      // Bytes, not a string: fetch would otherwise add `text/plain` where we mean to send no Content-Type.
      const bytes = spec.bytes !== undefined ? new Uint8Array(spec.bytes) : body === undefined ? undefined : new TextEncoder().encode(body);
      const res =
        spec.method === 'GET' && bytes !== undefined
          ? await getWithBody(url, { headers, body: bytes, signal: controller.signal })
          : await fetch(url, { method: spec.method, headers, body: bytes, signal: controller.signal, redirect: 'manual' });
      response = await readResponse(res, maxBody);
    } catch (e) {
      error = transportErrorOf(e, timedOut, options.timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    return {
      seq: ++seq,
      group,
      operationId: spec.operationId ?? options.operationOf?.(group, spec.method, spec.path),
      path: spec.path,
      request,
      ...(response ? { response } : {}),
      ...(error ? { error } : {}),
      startedAt,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      curl: curlOf(request),
      checkId,
    };
  }

  /**
   * One request, repeated while the target sheds load (429/503 with Retry-After, retryAfter.ts):
   * the refusals are not the API's answer, so only the last exchange is recorded and judged, naming
   * the refusals before it.
   */
  async function shedLoad(group: Group, spec: RequestSpec, checkId: string, freshToken?: string): Promise<Exchange> {
    const { answer, refused } = await withRetryAfter(
      () => once(group, spec, checkId, freshToken),
      (e) => retryDelayMs(e.response?.status, e.response?.headers['retry-after']),
    );
    return refused.length === 0 ? answer : { ...answer, refusedBefore: refused.map((e) => e.response!.status) };
  }

  return {
    options,
    bind(checkId, record) {
      return {
        baseUrl: (group) => options.baseUrls[group],
        async request(group, spec) {
          const first = await shedLoad(group, spec, checkId);
          record(first);
          const mayRefresh = (spec.auth === undefined || spec.auth === 'default') && options.tokens !== undefined;
          if (first.response?.status !== 401 || !mayRefresh) return first;
          const fresh = await options.tokens!.refresh();
          if (fresh === undefined) return first;
          const retried = await shedLoad(group, spec, checkId, fresh);
          record(retried);
          return retried;
        },
        async stream(group, path, streamOptions) {
          const token = await tokenFor(streamOptions.auth);
          // An upgrade refused while the target sheds load is opened again, as a request is: no frame went either way.
          const { answer: result, refused } = await withRetryAfter(
            () => openStream(joinUrl(baseFor(group, path), path).replace(/^http/, 'ws'), {
              ...streamOptions,
              token: token.value,
              showToken: token.show,
              timeoutMs: streamOptions.timeoutMs ?? options.timeoutMs,
              maxBodyBytes: maxBody,
            }),
            (r) => (r.ended === 'rejected' ? retryDelayMs(r.rejectedStatus, r.exchange.response?.headers['retry-after']) : undefined),
          );
          const exchange: Exchange = {
            ...result.exchange, seq: ++seq, group, path, checkId,
            ...(refused.length === 0 ? {} : { refusedBefore: refused.map((r) => r.rejectedStatus!) }),
          };
          record(exchange);
          return { ...result, exchange };
        },
      };
    },
  };
}

/** `/v0/scan-proxy/...`: the validator's forms of Scan's reads (Splice's scan-proxy.yaml). */
export function isScanProxyPath(path: string): boolean {
  return /^\/?v0\/scan-proxy(\/|$|\?)/.test(path);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}

/** Joins without doubling or dropping slashes: `http://h/api/` + `/v2/x` = `http://h/api/v2/x`. */
export function joinUrl(base: string, path: string, query?: Readonly<Record<string, string | number | boolean>>): string {
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  const p = path.startsWith('/') ? path : `/${path}`;
  const q = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}` : '';
  return `${b}${p}${q}`;
}

async function readResponse(res: Response, maxBody: number): Promise<RecordedResponse> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k] = v));
  const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > maxBody) {
        chunks.push(value.subarray(0, maxBody - size));
        size = maxBody;
        truncated = true;
        await reader.cancel().catch(() => undefined);
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  }
  const all = Buffer.concat(chunks);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(all);
  const sha256 = contentType === 'application/octet-stream' ? createHash('sha256').update(all).digest('hex') : undefined;
  return { status: res.status, headers, contentType, text, truncated, size, ...(sha256 === undefined ? {} : { sha256, bytes: new Uint8Array(all) }) };
}
