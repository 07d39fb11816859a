/**
 * Meaning without the subject (issue #30). In a scope about one person (or two people talking),
 * every record names its subject, and so does every question about it: to a sentence model the name
 * is a large share of both texts, so a question's cosine with a record says as much about how much
 * of the record is the name (the shortest record wins) as about what the question asks. Removing the
 * subject's direction from the query and from each record (the orthogonal complement of the subject
 * vectors' span) leaves the cosine of what they say about the subject: on the persona set, the right
 * fact comes first for 89.6 % of the questions by that cosine against 82.4 % by the raw one, and
 * questions nothing answers stand out better (bench/README.md, "Meaning without the subject").
 *
 * The cosine of a record m with the projected query q⊥ (unit, orthogonal to the subject basis e_i):
 * q⊥·m⊥ / |m⊥| = q⊥·m / sqrt(|m|² − Σ (m·e_i)²), since q⊥ is orthogonal to what is removed.
 * Linear algebra on a few vectors; no library needed for it.
 */

function dot(a: Float32Array, b: Float32Array, offset = 0): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[offset + i]!;
  return s;
}

/** Below this norm a residual is taken for nothing (the vector lies in the span already). */
const EPS = 1e-6;

export class SubjectProjection {
  private constructor(
    /** Orthonormal basis of the removed subject directions. */
    private readonly basis: Float32Array[],
    /** The query without them, unit length. */
    readonly query: Float32Array,
  ) {}

  /**
   * The projection of `query` off the span of `subjects` (Gram–Schmidt), or undefined when nothing is
   * removed (no subject vector, or the query is all subject).
   */
  static of(query: Float32Array, subjects: readonly Float32Array[]): SubjectProjection | undefined {
    const basis: Float32Array[] = [];
    for (const s of subjects) {
      if (s.length !== query.length) continue;
      const r = Float32Array.from(s);
      for (const e of basis) {
        const d = dot(r, e);
        for (let i = 0; i < r.length; i++) r[i]! -= d * e[i]!;
      }
      const n = Math.sqrt(dot(r, r));
      if (n < EPS) continue;
      for (let i = 0; i < r.length; i++) r[i]! /= n;
      basis.push(r);
    }
    if (basis.length === 0) return undefined;
    const q = Float32Array.from(query);
    for (const e of basis) {
      const d = dot(q, e);
      for (let i = 0; i < q.length; i++) q[i]! -= d * e[i]!;
    }
    const n = Math.sqrt(dot(q, q));
    if (n < EPS) return undefined;
    for (let i = 0; i < q.length; i++) q[i]! /= n;
    return new SubjectProjection(basis, q);
  }

  /** Cosine of the projected query with the projected record stored at `data[offset … offset + dims)`; 0 for a record that is all subject. */
  cosineAt(data: Float32Array, offset: number): number {
    const q = this.query;
    let mm = 0;
    let qm = 0;
    for (let i = 0; i < q.length; i++) {
      const x = data[offset + i]!;
      mm += x * x;
      qm += q[i]! * x;
    }
    let rest = mm;
    for (const e of this.basis) {
      const d = dot(e, data, offset);
      rest -= d * d;
    }
    return rest < EPS * EPS ? 0 : qm / Math.sqrt(rest);
  }
}
