import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rootLogger } from "@engram/observability";
import { EmbeddedEventBus, type EmbeddedBusOptions } from "../src/embedded-bus";
import type { EventHeaders, OutgoingMessage } from "../src/port";

/** A silent pino logger (the process root logger, created silent in this test file). */
export const silentLogger = rootLogger({ level: "silent" });

export function tempDir(prefix = "engram-bus-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export function openBus(dataDir: string, opts: Partial<EmbeddedBusOptions> = {}): EmbeddedEventBus {
  return new EmbeddedEventBus({ dataDir, logger: silentLogger, backoffMs: 5, maxBackoffMs: 20, pollMs: 50, ...opts });
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export function textMessage(topic: string, key: string, text: string, headers: Partial<EventHeaders> = {}): OutgoingMessage {
  return { topic, key, value: enc.encode(text), headers: { "event-id": `${key}-${text}`, "event-type": "Test", ...headers } as EventHeaders };
}

export const textOf = (value: Uint8Array): string => dec.decode(value);

/** Polls until `fn` is true; fails with `what` after the timeout. */
export async function until(fn: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
