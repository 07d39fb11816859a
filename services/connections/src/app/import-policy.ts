import type { ImportCandidate, ImportJudge } from "@engram/nlp";
import { IMPORT_JUDGE_TEXT_CHARS } from "@engram/nlp";
import type { Connection } from "../domain/connection";
import { ImportFilter } from "../domain/import-filter";
import type { SettingsRepository } from "./ports";
import type { ImportItem, ImportPolicy } from "./sync-ports";

/** Most model verdicts remembered per process (an item refused once is not asked about again until it changes). */
const VERDICT_MEMORY = 50_000;

const TEXT_TYPES = /^(text\/|application\/(json|xml|xhtml\+xml|x-ndjson|javascript|x-yaml)|.*\+xml$|.*\+json$)/i;

/** The beginning of an item's text, when its type is text; binary files are judged by their names. */
function textOf(content: ImportItem["content"]): string | undefined {
  if (!TEXT_TYPES.test(content.mimeType)) return undefined;
  return new TextDecoder("utf-8", { fatal: false }).decode(content.bytes.subarray(0, IMPORT_JUDGE_TEXT_CHARS * 4)).slice(0, IMPORT_JUDGE_TEXT_CHARS);
}

/**
 * The organisation's import policy for a connection's run: its
 * includeItems / excludeItems patterns (ImportFilter), then, when
 * `shouldLLMFilter` is on with a `filterPrompt` and Engram has a model
 * (`judge`), the model's verdict on the item. Model verdicts are remembered
 * per item version and settings change, so an item the model refused costs
 * no new call on the next run; a model failure is the item's failure (the
 * run records it and the next run asks again). Applies to items imported or
 * changed from then on; documents imported before stay until their item
 * changes.
 */
export class OrganizationImportPolicies {
  private readonly verdicts = new Map<string, { admit: true } | { admit: false; reason: string }>();

  constructor(
    private readonly deps: {
      settings: SettingsRepository;
      /** Absent: no model is configured (LLM_BASE_URL, LLM_MODEL), so the filter prompt is not applied. */
      judge?: ImportJudge;
    },
  ) {}

  async forConnection(conn: Connection): Promise<ImportPolicy | undefined> {
    const s = await this.deps.settings.get(conn.tenantId);
    if (!s) return undefined;
    const filter = ImportFilter.of(s, conn.provider);
    const judge = this.deps.judge;
    const prompt = s.shouldLLMFilter === true && s.filterPrompt?.trim() ? s.filterPrompt : undefined;
    const model = prompt && judge ? { prompt, judge } : undefined;
    if (!filter.active && !model) return undefined;
    const settingsVersion = s.updatedAt ?? "";
    return {
      admits: async (item) => {
        const names = { title: item.title, filepath: item.filepath, url: item.url };
        const byPattern = filter.admits(names);
        if (!byPattern.admit || !model) return byPattern;
        const key = `${conn.id}\u0000${item.itemKey}\u0000${item.version}\u0000${settingsVersion}`;
        const known = this.verdicts.get(key);
        if (known) return known;
        const candidate: ImportCandidate = { ...names, text: textOf(item.content) };
        const d = await model.judge.judge(model.prompt, candidate);
        const verdict = d.admit ? ({ admit: true } as const) : ({ admit: false, reason: `excluded by the organisation's filter prompt: ${d.reason}` } as const);
        if (this.verdicts.size >= VERDICT_MEMORY) this.verdicts.clear();
        this.verdicts.set(key, verdict);
        return verdict;
      },
    };
  }
}
