import { FailedPreconditionError, InvalidArgumentError } from "@engram/kernel";
import type { BucketSuggester } from "@engram/nlp";
import type { Logger } from "@engram/observability";
import type { SettingsRepository } from "./ports";

/** Most sample memories used, and most characters of each. */
const SAMPLE_MAX = 100;
const SAMPLE_CHARS = 1000;

/**
 * POST /v3/settings/suggest-buckets: 3 to 6 profile buckets for the
 * organisation, from its workspace prompt and a sample of its memories,
 * never repeating a bucket it has. With a configured model its suggestions,
 * else (or when the model fails) the offline ones. FailedPreconditionError
 * (400, "no context") when there is neither a prompt nor a memory.
 */
export class SuggestBucketsUseCase {
  constructor(
    private readonly deps: {
      settings: SettingsRepository;
      offline: BucketSuggester;
      /** The configured model's suggester, when there is one. */
      model?: BucketSuggester;
      logger: Logger;
    },
  ) {}

  async execute(tenantId: string, sampleMemories: string[]): Promise<{ key: string; description: string }[]> {
    if (!tenantId) throw new InvalidArgumentError("call context without tenant");
    const s = await this.deps.settings.get(tenantId);
    const prompt = s?.workspacePrompt?.trim() || undefined;
    const memories = sampleMemories
      .map((m) => m.trim())
      .filter(Boolean)
      .slice(0, SAMPLE_MAX)
      .map((m) => m.slice(0, SAMPLE_CHARS));
    if (!prompt && memories.length === 0)
      throw new FailedPreconditionError(
        "no context available to suggest buckets from",
        "describe the use case with PATCH /v3/settings {workspacePrompt}, or add memories first",
      );
    const input = { prompt, memories, existing: s?.profileBuckets ?? [] };
    if (this.deps.model) {
      try {
        return await this.deps.model.suggest(input);
      } catch (err) {
        this.deps.logger.warn({ err, tenantId }, "the model could not suggest buckets; answering the offline suggestions");
      }
    }
    return this.deps.offline.suggest(input);
  }
}
