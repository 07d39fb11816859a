import { type FilterExpr, parseFilter } from "@engram/filters";
import { InvalidArgumentError } from "@engram/kernel";
import type { CallContext__Output } from "./gen/engram/common/v1/CallContext";
import type { Filter__Output } from "./gen/engram/common/v1/Filter";
import { fromStruct } from "./convert";
import { checkTenant, currentAssertion } from "./trust";

/**
 * The tenant of a call; a request without one is a programming error of the caller (the gateway always sets it).
 * It must be the tenant of the call's verified assertion (the server checks a request's own context before the
 * handler; this covers contexts it cannot see, such as a streamed upload's header).
 */
export function tenantOf(context: CallContext__Output | null | undefined): string {
  const t = context?.tenantId;
  if (!t) throw new InvalidArgumentError("call context without tenant");
  const asserted = currentAssertion();
  if (asserted) checkTenant(asserted, t);
  return t;
}

/** The API's filter carried as a Struct, validated (absent or empty = no filter). */
export function filterFromProto(f: Filter__Output | null | undefined): FilterExpr | undefined {
  const expr = fromStruct(f?.expression);
  return expr && Object.keys(expr).length ? parseFilter(expr) : undefined;
}
