import { InvalidArgumentError } from "./errors";

/** A namespace (v5) / container tag (legacy): 1-100 of letters, digits, '-', '_', '.', ':'. */
export const SCOPE_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;

/** Throws InvalidArgumentError naming the field when `ns` is not a valid namespace. */
export function validateNamespace(ns: string, field = "namespace"): void {
  if (!SCOPE_PATTERN.test(ns)) {
    throw new InvalidArgumentError(
      `invalid ${field} ${JSON.stringify(ns.slice(0, 120))}`,
      `${field} must be 1-100 characters of letters, digits, '-', '_', '.' and ':'`,
    );
  }
}

/** The namespace of requests that name none (the default project): kept, emptied, by the organisation reset. */
export const DEFAULT_NAMESPACE = "default";
