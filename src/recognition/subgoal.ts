/**
 * A subgoal as recognition holds it: a library entry's description in canonical form, its
 * compiled control stream (compile.ts) and the description's automorphisms, made once when
 * the entry is read (`compileSubgoal`) and shared by every recogniser that scans for it.
 */
import { automorphisms, canonicalise, canonicalString } from '../notation/canonical.ts';
import { compileDescription } from './compile.ts';
import type { ControlStream } from './controlStream.ts';
import type { Description } from '../notation/description.ts';
import { specAtom } from './profile.ts';
import { ok, type Result } from '../rules/result.ts';

/** A library entry ready for recognition: canonical text, description and compiled stream. */
export interface Subgoal {
  readonly text: string;
  readonly description: Description;
  /** The stream for whole-board scans, entered at the most demanding node. */
  readonly stream: ControlStream;
  /** Node permutations mapping the description onto itself (perm[i - 1] = image of node i). */
  readonly automorphisms: readonly (readonly number[])[];
  /** The OR of the atoms the stream's entry node needs: a point lacking one cannot be it. */
  readonly need: number;
}

export function compileSubgoal(d: Description): Result<Subgoal> {
  const canonical = canonicalise(d);
  const stream = compileDescription(canonical);
  if (!stream.ok) return stream;
  const need = canonical.nodes[stream.value.entry - 1].lines.reduce((m, l) => m | specAtom(l.spec), 0);
  return ok({
    text: canonicalString(canonical),
    description: canonical,
    stream: stream.value,
    automorphisms: automorphisms(canonical),
    need,
  });
}
