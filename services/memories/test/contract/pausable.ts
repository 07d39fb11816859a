import type { MemoryRepository } from "../../src/app/ports";

/** A call held before it reaches the store: `reached` resolves when it arrives, `release` lets it go on. */
export interface Hold {
  reached: Promise<void>;
  release(): void;
}

type Method = {
  [K in keyof MemoryRepository]: MemoryRepository[K] extends (...args: never[]) => unknown ? K : never;
}[keyof MemoryRepository];

interface Pending {
  method: Method;
  when: (args: unknown[]) => boolean;
  skip: number;
  arrived: () => void;
  released: Promise<void>;
}

/**
 * One replica's view of a shared store, whose calls can be held: the test holds
 * replica A's next `write` (after A read what it decides on), lets replica B act
 * on the same store, then releases A. The interleaving is fixed by the test,
 * never by timing.
 */
export class Pausable {
  readonly repo: MemoryRepository;
  private readonly pending: Pending[] = [];

  constructor(inner: MemoryRepository) {
    this.repo = new Proxy(inner, {
      get: (target, prop) => {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const i = this.pending.findIndex((p) => p.method === prop && p.when(args) && p.skip-- === 0);
          if (i >= 0) {
            const [p] = this.pending.splice(i, 1);
            p!.arrived();
            await p!.released;
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }

  /**
   * Holds the `nth` (1-based) next call of `method` whose arguments satisfy `when`.
   */
  holdBefore<K extends Method>(method: K, when: (...args: Parameters<MemoryRepository[K]>) => boolean = () => true, nth = 1): Hold {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((r) => (arrived = r));
    const released = new Promise<void>((r) => (release = r));
    this.pending.push({ method, when: (args) => when(...(args as Parameters<MemoryRepository[K]>)), skip: nth - 1, arrived, released });
    return { reached, release };
  }
}
