import { InvalidArgumentError } from "@engram/kernel";

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/**
 * The keys every FileStore accepts: segments of letters, digits, '.', '_'
 * and '-' joined by '/', none of them '.' or '..' (a key is a path on the
 * filesystem store).
 */
export function assertFileKey(key: string): void {
  if (!KEY.test(key) || key.split("/").some((p) => p === "." || p === "..")) throw new InvalidArgumentError(`invalid file key ${key}`);
}
