import { ProviderError, type RetryPolicy, displayUrl, postJson, withRetries } from "@engram/provider-http";
import { z } from "zod";

/**
 * A failure of an OpenAI-compatible chat-completions call: HTTP, network and
 * timeout failures (after retries, `retryable` set as for the embedder), a
 * refusal, or an answer that stayed invalid after one corrective retry
 * (`retryable` false). Messages never contain the API key.
 */
export class ChatProviderError extends ProviderError {
  override name = "ChatProviderError";
}

export interface ChatClientOptions {
  /** API root including the version segment, e.g. `http://localhost:11434/v1` or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Per-request timeout, response body included (default 30 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt for 429/5xx/network errors/timeouts (default 3). */
  maxRetries?: number;
  /** Backoff cap of the first retry (default 500 ms); doubles each retry, with full jitter. */
  initialBackoffMs?: number;
  /** Upper bound of any single wait between attempts, server hints included (default 20 000 ms). */
  maxBackoffMs?: number;
  /** Sampling temperature (default 0: answers as repeatable as the server allows). */
  temperature?: number;
  /** Injectable fetch (tests); defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface JsonTask<T> {
  /** Name of the answer schema sent to the server (letters, digits, `_`, `-`). */
  name: string;
  system: string;
  user: string;
  schema: z.ZodType<T>;
  /** Checks beyond the schema (ids that must exist, counts...): problems found, empty when the answer is usable. */
  check?: (value: T) => string[];
}

interface Message {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Why an answer could not be used; leads to one corrective retry. */
class InvalidAnswer extends Error {
  constructor(
    readonly problem: string,
    readonly content: string,
  ) {
    super(problem);
  }
}

/** JSON-Schema keywords kept on the wire: the subset strict structured-output servers accept. Validation proper is zod's. */
const WIRE_KEYS = new Set(["type", "properties", "required", "additionalProperties", "items", "enum", "description", "anyOf"]);

/** The schema as sent in `response_format`: zod's JSON Schema reduced to the widely supported keywords. */
export function wireSchema(schema: z.ZodType): Record<string, unknown> {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (!WIRE_KEYS.has(k)) continue;
      if (k === "properties" && v && typeof v === "object") {
        out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [p, strip(s)]));
      } else out[k] = strip(v);
    }
    return out;
  };
  return strip(z.toJSONSchema(schema)) as Record<string, unknown>;
}

/** The JSON object in a model's text: the whole text, else inside a ``` fence, else from the first `{` to the last `}`; reasoning blocks dropped. */
export function extractJson(text: string): unknown {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const candidates = [cleaned];
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(cleaned);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const a = cleaned.indexOf("{");
  const b = cleaned.lastIndexOf("}");
  if (a >= 0 && b > a) candidates.push(cleaned.slice(a, b + 1));
  for (const c of candidates) {
    try {
      return JSON.parse(c);
    } catch {
      // try the next reading
    }
  }
  throw new Error("the answer is not JSON");
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.union([z.string(), z.array(z.object({ type: z.string().optional(), text: z.string().optional() })), z.null()]).optional(),
          refusal: z.string().nullish(),
        }),
      }),
    )
    .min(1),
});

function positiveInt(name: string, v: number | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  if (!Number.isInteger(v) || v < (allowZero ? 0 : 1))
    throw new RangeError(`ChatClient: ${name} must be a ${allowZero ? "non-negative" : "positive"} integer, got ${v}`);
  return v;
}

function nonNegative(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`ChatClient: ${name} must be a non-negative number, got ${v}`);
  return v;
}

/**
 * Client of any server speaking `POST {baseUrl}/chat/completions` (OpenAI,
 * Ollama, vLLM, LM Studio, llama.cpp...), for tasks answered with one JSON
 * object.
 *
 * - Asks for structured output with `response_format: {type: "json_schema"}`;
 *   when the server rejects that (a 400/415/422/501 naming response_format or
 *   the schema), it switches to `{type: "json_object"}` for the rest of its
 *   life. The schema is also spelled out in the system prompt, so both modes
 *   (and servers that ignore response_format) get it.
 * - HTTP: 429/500/502/503/504, network errors and timeouts are retried with
 *   exponential backoff and full jitter, or after `retry-after-ms` /
 *   `Retry-After` (the policy shared with the embedder).
 * - Every answer is parsed and validated with zod (plus the task's own
 *   checks). An invalid answer is retried once, telling the model what was
 *   wrong; a second invalid answer fails with a `ChatProviderError`.
 */
export class ChatClient {
  readonly model: string;
  private readonly url: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly temperature: number;
  private readonly fetchImpl: typeof fetch;
  private mode: "json_schema" | "json_object" = "json_schema";

  constructor(options: ChatClientOptions) {
    if (!options.baseUrl) throw new RangeError("ChatClient: baseUrl is required");
    if (!options.model) throw new RangeError("ChatClient: model is required");
    this.model = options.model;
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = positiveInt("timeoutMs", options.timeoutMs, 30_000);
    this.retryPolicy = {
      maxRetries: positiveInt("maxRetries", options.maxRetries, 3, true),
      initialBackoffMs: nonNegative("initialBackoffMs", options.initialBackoffMs, 500),
      maxBackoffMs: nonNegative("maxBackoffMs", options.maxBackoffMs, 20_000),
    };
    this.temperature = nonNegative("temperature", options.temperature, 0);
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new RangeError("ChatClient: no fetch implementation available");
    this.fetchImpl = f;
  }

  /** The structured-output mode in use: `json_object` once the server rejected `json_schema`. */
  get responseFormat(): "json_schema" | "json_object" {
    return this.mode;
  }

  private get what(): string {
    return `Chat completion request to ${displayUrl(this.url)}`;
  }

  /** Runs one task and returns its validated answer. */
  async json<T>(task: JsonTask<T>): Promise<T> {
    const wire = wireSchema(task.schema);
    const messages: Message[] = [
      {
        role: "system",
        content: `${task.system}\n\nReply with one JSON object and nothing else. It must match this JSON Schema:\n${JSON.stringify(wire)}`,
      },
      { role: "user", content: task.user },
    ];
    let last: InvalidAnswer | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const content = await this.complete(messages, task.name, wire);
        return this.validate(content, task);
      } catch (e) {
        if (!(e instanceof InvalidAnswer)) throw e;
        last = e;
        messages.push(
          { role: "assistant", content: e.content.slice(0, 4000) },
          { role: "user", content: `That answer is not usable: ${e.problem}. Reply again with only the corrected JSON object matching the schema.` },
        );
      }
    }
    throw new ChatProviderError(`${this.what} (model ${this.model}, task ${task.name}) returned an invalid answer twice: ${last!.problem}`, {
      retryable: false,
    });
  }

  private validate<T>(content: string, task: JsonTask<T>): T {
    let json: unknown;
    try {
      json = extractJson(content);
    } catch {
      throw new InvalidAnswer("the answer is not a JSON object", content);
    }
    const parsed = task.schema.safeParse(json);
    if (!parsed.success) throw new InvalidAnswer(describeIssues(parsed.error), content);
    const problems = task.check?.(parsed.data) ?? [];
    if (problems.length) throw new InvalidAnswer(problems.slice(0, 8).join("; "), content);
    return parsed.data;
  }

  /** One completion (HTTP retries included); returns the message text or throws InvalidAnswer / ChatProviderError. */
  private complete(messages: Message[], name: string, wire: Record<string, unknown>): Promise<string> {
    return withRetries(
      async () => {
        const text = await this.post(messages, name, wire);
        return this.content(text);
      },
      this.retryPolicy,
      { errorClass: ChatProviderError, what: this.what },
    );
  }

  private async post(messages: Message[], name: string, wire: Record<string, unknown>): Promise<string> {
    for (;;) {
      const mode = this.mode;
      const body = {
        model: this.model,
        messages,
        temperature: this.temperature,
        stream: false,
        response_format: mode === "json_schema" ? { type: "json_schema", json_schema: { name, strict: true, schema: wire } } : { type: "json_object" },
      };
      try {
        const res = await postJson({
          url: this.url,
          body,
          apiKey: this.apiKey,
          timeoutMs: this.timeoutMs,
          fetch: this.fetchImpl,
          what: this.what,
          errorClass: ChatProviderError,
        });
        return res.text;
      } catch (e) {
        if (mode === "json_schema" && e instanceof ChatProviderError && rejectsJsonSchema(e)) {
          this.mode = "json_object";
          continue;
        }
        throw e;
      }
    }
  }

  private content(text: string): string {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new InvalidAnswer("the response body is not JSON", text);
    }
    const parsed = completionSchema.safeParse(json);
    if (!parsed.success) throw new InvalidAnswer(`not a chat completion (${describeIssues(parsed.error)})`, text.slice(0, 2000));
    const choice = parsed.data.choices[0]!;
    if (choice.message.refusal) {
      throw new ChatProviderError(`${this.what} (model ${this.model}): the model refused: ${choice.message.refusal.slice(0, 300)}`, { retryable: false });
    }
    const c = choice.message.content;
    const content = typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p.text ?? "").join("") : "";
    if (choice.finish_reason === "length") throw new InvalidAnswer("the answer was cut off (finish_reason=length); answer more briefly", content);
    if (!content.trim()) throw new InvalidAnswer("the answer is empty", content);
    return content;
  }
}

/** A server that does not support `json_schema` structured output says so with a 4xx/501 naming it. */
function rejectsJsonSchema(e: ChatProviderError): boolean {
  if (e.status === undefined || ![400, 415, 422, 501].includes(e.status)) return false;
  return /response_format|json_schema|structured|schema/i.test(e.serverMessage ?? e.message);
}
