import type { ApiEnvelope, Endpoint, EndpointResult, ParsedBody, ParsedParams, ParsedQuery } from '@pitboss/contract';
import type { FastifyContextConfig, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import type { App } from './types.js';

/** A request as the handler of endpoint `E` sees it: params, query and body already validated by its schemas. */
export type EndpointRequest<E> = Omit<FastifyRequest, 'body' | 'query' | 'params'> & {
  body: ParsedBody<E>;
  query: ParsedQuery<E>;
  params: ParsedParams<E>;
};

/** What a handler gives back: the envelope with the declared result, or the reply it sent itself (files, replays). */
export type EndpointAnswer<E> = ApiEnvelope<EndpointResult<E>> | FastifyReply;

/**
 * Answers are checked against the declared result schema under test (VITEST), where a mismatch
 * fails the request: a server bug, caught by every API test that calls the endpoint. In production
 * the check costs a parse of every answer for nothing the tests did not already prove, so it runs
 * only when asked (`CHECK_RESPONSES=1`), logging a mismatch instead of failing.
 */
const UNDER_TEST = process.env.VITEST === 'true';
const CHECK_RESPONSES = UNDER_TEST || process.env.CHECK_RESPONSES === '1';

export function checkResult(ep: Endpoint, result: unknown, log: FastifyRequest['log']): void {
  if (!ep.result || !CHECK_RESPONSES) return;
  const checked = ep.result.safeParse(result);
  if (checked.success) return;
  const issue = checked.error.issues[0];
  const what = `${ep.key} answered a result that its declaration does not allow: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`;
  if (UNDER_TEST) throw new Error(what);
  log.error({ issues: checked.error.issues.slice(0, 5) }, what);
}

/**
 * A JSON body refuses keys its schema does not name (400, each unknown key as a field error), as the
 * declared resources' forms do: a misspelt field (`titel`) is an error, never a 200 that changed
 * nothing. An object schema that states its own policy (a catch-all, passthrough) keeps it.
 */
export function strictBody(body: z.ZodType): z.ZodType {
  if (body instanceof z.ZodObject && body.def.catchall === undefined) return body.strict();
  return body;
}

/**
 * Registers a route from its contract declaration: method, path, access, validation schemas, and
 * the check of the answer. The route file keeps only the handler (and per-route options such as a
 * rate limit), so nothing about the endpoint is written twice.
 */
export function route<E extends Endpoint>(
  app: App,
  ep: E,
  handler: (req: EndpointRequest<E>, reply: FastifyReply) => Promise<EndpointAnswer<E>>,
  options: { config?: Omit<FastifyContextConfig, 'access'>; preValidation?: preValidationHookHandler } = {},
): void {
  const schema: Record<string, unknown> = {};
  if (ep.params) schema.params = ep.params;
  if (ep.query) schema.querystring = ep.query;
  if (ep.body) schema.body = strictBody(ep.body);
  app.route({
    method: ep.method,
    url: ep.path,
    config: { ...options.config, access: ep.access },
    schema,
    ...(options.preValidation ? { preValidation: options.preValidation } : {}),
    handler: async (req, reply) => {
      const answer = await handler(req as unknown as EndpointRequest<E>, reply);
      // A handler that streamed or sent its reply itself may return nothing (or the reply): nothing to check then.
      if (answer != null && (answer as unknown) !== reply && ep.result && (answer as ApiEnvelope).success) checkResult(ep, (answer as ApiEnvelope).result, req.log);
      return answer;
    },
  });
}
