import { logRedacted } from './errors/logRedacted.js';
import { ledgerError } from '../../ledger/errors.js';
import { checkAccess } from './auth/checkAccess.js';
import { renderProblem } from './errors/renderProblem.js';
import { decodeJsonBody } from './decodeJsonBody.js';
import type { Route } from './route.js';
import { settleViews, viewMark } from '../../ledger/pendingViews.js';
import type { ApiServices } from './services.js';
import type { ApiRequest, ApiResponse, Problem } from './types.js';

/**
 * The pipeline every matched request runs through, whatever the adapter: decode and validate the
 * body (decoding errors come first, as on the participant), authenticate, check the route's access
 * rule, call the handler, and render any refusal in one place. Nothing escapes as an exception: an
 * unexpected one is logged and answered as INTERNAL_ERROR without details.
 */
export async function handleRoute(
  route: Route,
  request: ApiRequest,
  params: Readonly<Record<string, string>>,
  services: ApiServices,
): Promise<ApiResponse> {
  let correlationId: string | undefined;
  const refuse = (problem: Problem): ApiResponse =>
    renderProblem(problem, route.group, {
      participantId: services.participantId,
      ...(correlationId === undefined ? {} : { correlationId }),
      onRedacted: logRedacted(services.log, `${request.method} ${request.path}`),
    });
  try {
    let body: unknown = undefined;
    if (route.body === 'binary') {
      const bytes = request.bodyBytes;
      if (bytes === undefined || bytes.length === 0) return refuse({ kind: 'decode', message: 'Invalid value for: body (missing request body)' });
      // The msw adapter reads the whole body before routing: the limit is checked here too.
      if (bytes.length > services.config.maxUploadBodyBytes) return refuse({ kind: 'body-too-large', limit: services.config.maxUploadBodyBytes });
    } else if (route.body === 'json-optional' && (request.bodyText === undefined || request.bodyText.trim() === '')) {
      body = {};
    } else if (route.body === 'json' || route.body === 'json-optional') {
      const decoded = decodeJsonBody(request.bodyText, services.config.maxRequestBodyBytes);
      if (!decoded.ok) return refuse(decoded.error);
      const check = services.validateBody(route.operationId, decoded.value);
      if (!check.ok) {
        return refuse(
          check.kind === 'shape'
            ? { kind: 'decode', message: check.message }
            : { kind: 'ledger', error: ledgerError('INVALID_ARGUMENT', `The submitted request has invalid arguments: Unexpected fields: ${check.fields.join(', ')}`) },
        );
      }
      body = decoded.value;
      correlationId = submissionIdOf(body);
    }

    if (route.public !== true) {
      const principal = await services.authenticator.authenticate({ headers: request.headers });
      if (!principal.ok) return refuse({ kind: 'ledger', error: principal.error });
      const access = route.access?.({ body, params, query: request.query }) ?? { authenticated: true };
      // Awaited only when a rule is asynchronous (one that loads a module on first use): the others add no turn.
      const required = access instanceof Promise ? await access : access;
      const allowed = checkAccess(principal.value, required, services.ledger);
      if (!allowed.ok) return refuse({ kind: 'ledger', error: allowed.error });
      const mark = viewMark();
      const result = await route.handle({ request, params, query: request.query, body, principal: principal.value, services });
      // Interface views of uploaded code the handler rendered are evaluated in slices before the answer leaves.
      await settleViews(mark);
      return result.ok ? result.value : refuse(result.error);
    }
    const mark = viewMark();
    const result = await route.handle({ request, params, query: request.query, body, principal: { kind: 'wildcard' }, services });
    await settleViews(mark);
    return result.ok ? result.value : refuse(result.error);
  } catch (e) {
    services.log.error(`${request.method} ${request.path} (${route.operationId}) failed`, e);
    return refuse({ kind: 'internal' });
  }
}

/** The participant reports a submission's id as the error's correlation id. */
function submissionIdOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const nested = record['commands'];
  const holder = nested !== null && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Record<string, unknown>) : record;
  const id = holder['submissionId'];
  return typeof id === 'string' ? id : undefined;
}
